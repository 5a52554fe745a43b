import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitWithdrawalEvent } from './emit-withdrawal-event';

/**
 * Inserts a withdrawal and writes its withdrawal.created, in the caller's
 * transaction (exchange withdrawals; the caller posts the debit). The API's
 * own path is createWithdrawal's single statement.
 */
export async function insertWithdrawal(tx: Db, values: typeof withdrawals.$inferInsert): Promise<Withdrawal> {
  const [w] = await tx.insert(withdrawals).values(values).returning();
  await emitWithdrawalEvent(tx, w!, 'withdrawal.created');
  return w!;
}
