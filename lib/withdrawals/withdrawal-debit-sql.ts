import { sql, type SQL } from 'drizzle-orm';
import { newId } from '@/lib/ids';
import type { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';

/**
 * The CTEs that debit a withdrawal, for a statement that starts with `with`:
 *
 * - `cur` locks the balance row (FOR UPDATE returns its latest committed version, after
 *   waiting for any transaction holding it), so what follows is decided on the balance
 *   as it is when the money moves, never on an earlier read;
 * - `debit` prices it: when `amount` is the Max of that balance (lib/withdrawals/amounts.ts,
 *   maxWithdrawal: balance / (1 + rate) to the nearest cent, never above the balance), the
 *   fee is balance − amount (the spec: Max empties the balance); otherwise amount × rate;
 * - `moved` updates the row if amount + fee fits and `guard` holds, returning the new
 *   balance and the fee (the UPDATE's own WHERE cannot test the balance: it is evaluated
 *   on the statement's snapshot first, which may predate the version `cur` locked);
 * - `entries` writes the `withdrawal` and (if any) `withdrawal_fee` ledger entries.
 *
 * Other inserts of the statement select `from moved`, so they happen only with the debit.
 */
export function withdrawalDebitSql(input: {
  tenantId: string;
  mode: Mode;
  withdrawalId: string;
  amount: Decimal;
  rate: string;
  guard: SQL;
  /** The balance debited (the withdrawal's token); USDT when absent. */
  currency?: string;
}) {
  const { tenantId, mode, withdrawalId, guard } = input;
  const currency = input.currency ?? 'USDT';
  const amount = input.amount.toFixed();
  const key = (t: string) => sql`${sql.raw(t)}.tenant_id = ${tenantId} and ${sql.raw(t)}.mode = ${mode} and ${sql.raw(t)}.currency = ${currency}`;
  // A wide scale for the division so that rounding to cents matches decimal.js (60 digits) in maxWithdrawal.
  const max = sql`greatest(0, least(round(cur.available::numeric(60, 30) / (1 + ${input.rate}::numeric), 2), trunc(cur.available, 2)))`;
  const ctes = sql`
    cur as (
      select available from balances where ${key('balances')} for update
    ), debit as (
      select case when ${amount}::numeric = ${max} then cur.available - ${amount}::numeric
                  else ${amount}::numeric * ${input.rate}::numeric end as fee,
             cur.available
        from cur
    ), moved as (
      update balances b set available = b.available - ${amount}::numeric - debit.fee, updated_at = now()
        from debit
       where ${key('b')} and debit.available - ${amount}::numeric - debit.fee >= 0 and ${guard}
      returning b.available, debit.fee
    ), entries as (
      insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after)
      select e.id, ${tenantId}, ${mode}, ${currency}, e.amount, e.kind, 'withdrawal', ${withdrawalId}, e.balance_after
        from moved cross join lateral (values
               (${newId('ledgerEntry')}, -${amount}::numeric, 'withdrawal', moved.available + moved.fee),
               (${newId('ledgerEntry')}, -moved.fee, 'withdrawal_fee', moved.available)
             ) as e(id, amount, kind, balance_after)
       where e.kind = 'withdrawal' or moved.fee > 0
    )`;
  /** The fee as the wire shows amounts (formatAmount: at least two decimals, no trailing zeros beyond). */
  const feeText = sql`round(moved.fee, greatest(2, scale(trim_scale(moved.fee))))::text`;
  return { ctes, feeText };
}
