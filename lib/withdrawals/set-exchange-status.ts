import { eq, sql } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';

/** Records an exchange withdrawal's order status in its metadata (metadata.exchangeStatus), in the caller's transaction. */
export async function setWithdrawalExchangeStatus(tx: Db, withdrawalId: string, status: string, now: Date): Promise<void> {
  await tx
    .update(withdrawals)
    .set({ metadata: sql`coalesce(${withdrawals.metadata}, '{}'::jsonb) || jsonb_build_object('exchangeStatus', ${status}::text)`, updatedAt: now })
    .where(eq(withdrawals.id, withdrawalId));
}
