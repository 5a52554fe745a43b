import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';

/** A withdrawal row for isolation tests (no balance or chain needed). */
export async function createTestWithdrawal(db: Db, owner: { tenantId: string; mode: Mode }) {
  const [row] = await db
    .insert(withdrawals)
    .values({
      chain: 'BSC',
      token: 'USDT',
      id: newId('withdrawal'),
      ...owner,
      amount: '1',
      feeAmount: '0.01',
      netAmount: '1',
      destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      chainId: 31337,
      status: 'COMPLETED',
    })
    .returning();
  return row!;
}
