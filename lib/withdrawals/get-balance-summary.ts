import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { DEFAULT_RAIL, type Asset } from '@/lib/config/rails';
import { withdrawalCosts } from './get-max-withdrawal';

/**
 * Available (ledger balance) and pending (amount + fee held by open withdrawals) of a tenant and mode,
 * in one asset (always named; balances are per asset, whichever network paid them). A withdrawal
 * holds the balance of its token (exchange withdrawals are USDT), so pending counts that token's only.
 */
export async function getBalanceSummary(db: Db, owner: { tenantId: string; mode: Mode }, query: { currency: Asset }) {
  const currency = query.currency;
  const [row] = rowsOf<{ available: string; pending: string }>(
    await db.execute(sql`
      select coalesce((select available from balances
                        where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = ${currency}), 0)::text as available,
             coalesce((select sum(case when kind = 'exchange' then amount else amount + fee_amount end) from withdrawals
                        where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and token = ${currency}
                          and status in ('PENDING', 'PROCESSING')), 0)::text as pending`),
  );
  return {
    available: formatAmount(row!.available),
    pending: formatAmount(row!.pending),
    currency,
    network: DEFAULT_RAIL.chain,
    withdrawalCosts: withdrawalCosts(owner.mode, currency),
  };
}
