import { randomUUID } from 'node:crypto';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import type { Mode } from '@/lib/mode';
import { createTestTenant } from './fixtures';

/**
 * A test tenant with `balance` USDT in test mode to withdraw, credited through the ledger (as a settled invoice
 * would). `withdrawalFeeRate` 0.01 is also the column's default.
 */
export async function fundedTenant(balance: string, withdrawalFeeRate = '0.01') {
  const t = await createTestTenant({ withdrawalFeeRate });
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId: t.tenant.id,
      mode: 'test',
      amount: balance,
      kind: 'test_credit',
      referenceType: 'test',
      // (kind, reference) is unique across the run's database, whichever test file or process credits.
      referenceId: `funded-${randomUUID()}`,
      currency: 'USDT',
    }),
  );
  return t;
}

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
