import { sql, type SQL } from 'drizzle-orm';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import type { Asset } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

export interface PostEntryInput {
  tenantId: string;
  mode: Mode;
  /** Positive credits, negative debits; a decimal string. */
  amount: string;
  kind: string;
  referenceType: string;
  referenceId: string;
  /** The balance moved: always named (no money function has a default asset). */
  currency: Asset;
}

/**
 * The two CTEs of a ledger post, `moved` and `entries`, for a statement that
 * starts with `with`: a conditional UPDATE of the balance row (only if the
 * balance stays >= 0 and `guard` holds) returning the new balance, and the
 * INSERT of the entries, which depends on it (no balance moved, no entries).
 * Other inserts of the same statement can select `from moved` to happen only
 * with the post (the withdrawal and its event and audit row).
 */
export function ledgerPostSql(entries: PostEntryInput[], guard?: SQL) {
  const first = entries[0];
  if (!first) throw new Error('ledgerPostSql: no entries');
  const currency = first.currency;
  if (entries.some((e) => e.tenantId !== first.tenantId || e.mode !== first.mode || e.currency !== currency)) {
    throw new Error('ledger post: entries must share tenant, mode and currency');
  }
  const total = entries.reduce((sum, e) => sum.plus(e.amount), new Decimal(0)).toFixed();
  // balance_after of each entry: the new balance minus the entries that follow it.
  let later = new Decimal(0);
  const rows: { id: string; amount: string; kind: string; reference_type: string; reference_id: string; later: string }[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    rows[i] = {
      id: newId('ledgerEntry'),
      amount: new Decimal(e.amount).toFixed(),
      kind: e.kind,
      reference_type: e.referenceType,
      reference_id: e.referenceId,
      later: later.toFixed(),
    };
    later = later.plus(e.amount);
  }
  const ctes = sql`
    moved as (
      update balances set available = available + ${total}::numeric, updated_at = now()
       where tenant_id = ${first.tenantId} and mode = ${first.mode} and currency = ${currency}
         and available + ${total}::numeric >= 0${guard ? sql` and ${guard}` : sql``}
      returning available
    ), entries as (
      insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after)
      select e.id, ${first.tenantId}, ${first.mode}, ${currency}, e.amount, e.kind, e.reference_type, e.reference_id, moved.available - e.later
        from moved cross join jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             as e(id text, amount numeric, kind text, reference_type text, reference_id text, later numeric)
    )`;
  return { ctes, total, tenantId: first.tenantId, mode: first.mode, currency };
}
