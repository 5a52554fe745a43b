import { sql, type SQL } from 'drizzle-orm';
import { newId } from '@/lib/ids';
import type { Decimal } from '@/lib/money';
import type { Asset } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/**
 * The CTEs that debit a withdrawal, for a statement that starts with `with`:
 *
 * - `cur` locks the balance row (FOR UPDATE returns its latest committed version, after
 *   waiting for any transaction holding it), so what follows is decided on the balance
 *   as it is when the money moves, never on an earlier read;
 * - `debit` prices it: with the Max rule, when `amount` is the Max of that balance
 *   (lib/withdrawals/amounts.ts, maxWithdrawal: (balance − networkFee) / (1 + rate) to the nearest
 *   cent, never above the balance), the fee is balance − amount (the spec: Max empties the balance);
 *   otherwise `fee`, priced by withdrawalFee (lib/withdrawals/amounts.ts: the percentage in cents, half-up, plus
 *   networkFee), so the statement never prices a fee of its own;
 * - `moved` updates the row if what it takes fits and `guard` holds, returning the new
 *   balance and the fee (the UPDATE's own WHERE cannot test the balance: it is evaluated
 *   on the statement's snapshot first, which may predate the version `cur` locked). It takes
 *   amount + fee, or only amount when the fee is inside it (`feeInside`: a refund whose payer
 *   pays the network fee), less `credit` (the invoice fee a refund gives back);
 * - `entries` writes the ledger entries that are not zero: `invoice_fee_refund` (+credit),
 *   `withdrawal` (what the recipient gets), `withdrawal_fee` (the percentage) and `network_fee`
 *   (the network's flat fee), each with the balance after it.
 *
 * Other inserts of the statement select `from moved`, so they happen only with the debit.
 */
export function withdrawalDebitSql(input: {
  tenantId: string;
  mode: Mode;
  withdrawalId: string;
  amount: Decimal;
  rate: string;
  networkFee: Decimal;
  /** The fee below Max, as withdrawalFee priced it. */
  fee: Decimal;
  guard: SQL;
  /** The balance debited: the withdrawal's token. */
  currency: Asset;
  /** The fee is taken from the amount instead of on top (refunds whose payer pays the network fee). */
  feeInside: boolean;
  /** Whether an amount equal to the balance's Max takes the whole balance (withdrawals; never refunds). */
  maxRule: boolean;
  /** Credited in the same statement: the invoice fee a refund gives back (0 for a withdrawal). */
  credit: Decimal;
}) {
  const { tenantId, mode, withdrawalId, guard, currency } = input;
  const amount = input.amount.toFixed();
  const flat = input.networkFee.toFixed();
  const credit = input.credit.toFixed();
  const key = (t: string) => sql`${sql.raw(t)}.tenant_id = ${tenantId} and ${sql.raw(t)}.mode = ${mode} and ${sql.raw(t)}.currency = ${currency}`;
  // A wide scale for the division so that rounding to cents matches decimal.js (60 digits) in maxWithdrawal.
  const spendable = sql`(cur.available - ${flat}::numeric)`;
  const max = sql`greatest(0, least(round(${spendable}::numeric(60, 30) / (1 + ${input.rate}::numeric), 2), trunc(${spendable}, 2)))`;
  const priced = sql`${input.fee.toFixed()}::numeric`;
  const fee = input.maxRule ? sql`case when ${amount}::numeric = ${max} then cur.available - ${amount}::numeric else ${priced} end` : priced;
  // What leaves the balance beside the amount, and what of the amount is fee rather than the recipient's.
  const onTop = (f: SQL) => (input.feeInside ? sql`0` : f);
  const inner = (f: SQL) => (input.feeInside ? f : sql`0`);
  const ctes = sql`
    cur as (
      select available from balances where ${key('balances')} for update
    ), debit as (
      select ${fee} as fee, cur.available from cur
    ), moved as (
      update balances b set available = b.available - ${amount}::numeric - ${onTop(sql`debit.fee`)} + ${credit}::numeric, updated_at = now()
        from debit
       where ${key('b')} and debit.available - ${amount}::numeric - ${onTop(sql`debit.fee`)} + ${credit}::numeric >= 0 and ${guard}
      returning b.available, debit.fee
    ), before as (
      select moved.available + ${amount}::numeric + ${onTop(sql`moved.fee`)} - ${credit}::numeric as available, moved.fee from moved
    ), entries as (
      insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after)
      select e.id, ${tenantId}, ${mode}, ${currency}, e.amount, e.kind, 'withdrawal', ${withdrawalId}, e.balance_after
        from before cross join lateral (values
               (${newId('ledgerEntry')}, ${credit}::numeric, 'invoice_fee_refund', before.available + ${credit}::numeric),
               (${newId('ledgerEntry')}, -(${amount}::numeric - ${inner(sql`before.fee`)}), 'withdrawal',
                before.available + ${credit}::numeric - ${amount}::numeric + ${inner(sql`before.fee`)}),
               (${newId('ledgerEntry')}, -(before.fee - ${flat}::numeric), 'withdrawal_fee',
                before.available + ${credit}::numeric - ${amount}::numeric + ${inner(sql`before.fee`)} - (before.fee - ${flat}::numeric)),
               (${newId('ledgerEntry')}, -${flat}::numeric, 'network_fee',
                before.available + ${credit}::numeric - ${amount}::numeric + ${inner(sql`before.fee`)} - before.fee)
             ) as e(id, amount, kind, balance_after)
       where e.kind = 'withdrawal' or e.amount <> 0
    )`;
  /** The fee as the wire shows amounts (formatAmount: at least two decimals, no trailing zeros beyond). */
  const feeText = sql`round(moved.fee, greatest(2, scale(trim_scale(moved.fee))))::text`;
  return { ctes, feeText };
}
