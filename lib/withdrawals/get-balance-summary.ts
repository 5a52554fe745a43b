import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';

/** Available (ledger balance) and pending (amount + fee held by open withdrawals) of a tenant and mode. */
export async function getBalanceSummary(db: Db, owner: { tenantId: string; mode: Mode }) {
  const [row] = rowsOf<{ available: string; pending: string }>(
    await db.execute(sql`
      select coalesce((select available from balances
                        where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = 'USDT'), 0)::text as available,
             coalesce((select sum(case when kind = 'exchange' then amount else amount + fee_amount end) from withdrawals
                        where tenant_id = ${owner.tenantId} and mode = ${owner.mode}
                          and status in ('PENDING', 'PROCESSING')), 0)::text as pending`),
  );
  return { available: formatAmount(row!.available), pending: formatAmount(row!.pending), currency: 'USDT' as const, network: 'BSC' as const };
}
