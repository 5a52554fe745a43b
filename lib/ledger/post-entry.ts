import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { ApiError } from '@/lib/api/errors';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/tenants/mode';

export interface PostEntryInput {
  tenantId: string;
  mode: Mode;
  /** Positive credits, negative debits; a decimal string. */
  amount: string;
  kind: string;
  referenceType: string;
  referenceId: string;
  currency?: string;
}

export interface PostOptions {
  /** The error to throw when the debit exceeds the balance, given the balance as it stands (default: a generic insufficient_balance). */
  insufficient?: (available: Decimal) => ApiError;
}

/**
 * Appends ledger entries of one tenant, mode and currency and moves the
 * balance by their sum, in one statement: a conditional UPDATE of the balance
 * row and the INSERT of the entries that depends on it. Call it inside the
 * transaction of the state change that causes them. A net debit that would
 * take the balance below zero writes nothing and throws insufficient_balance
 * (the UPDATE is atomic under concurrency, and the row lock it takes is what
 * serialises a tenant's debits: call it last in the transaction so the lock
 * is held only for the entries and the commit). The unique (kind, referenceId)
 * index makes a repeated post fail instead of counting twice. Returns the new balance.
 */
export async function postLedgerEntries(tx: Db, entries: PostEntryInput[], opts: PostOptions = {}): Promise<string | undefined> {
  const first = entries[0];
  if (!first) return undefined;
  const currency = first.currency ?? 'USDT';
  if (entries.some((e) => e.tenantId !== first.tenantId || e.mode !== first.mode || (e.currency ?? 'USDT') !== currency)) {
    throw new Error('postLedgerEntries: entries must share tenant, mode and currency');
  }
  const total = entries.reduce((sum, e) => sum.plus(e.amount), new Decimal(0)).toFixed();
  // balance_after of each entry: the new balance minus the entries that follow it.
  let later = new Decimal(0);
  const rows: { id: string; amount: string; kind: string; reference_type: string; reference_id: string; later: string }[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    rows[i] = { id: newId('ledgerEntry'), amount: new Decimal(e.amount).toFixed(), kind: e.kind, reference_type: e.referenceType, reference_id: e.referenceId, later: later.toFixed() };
    later = later.plus(e.amount);
  }
  const post = async () =>
    rowsOf<{ available: string }>(
      await tx.execute(sql`
        with moved as (
          update balances set available = available + ${total}::numeric, updated_at = now()
           where tenant_id = ${first.tenantId} and mode = ${first.mode} and currency = ${currency}
             and available + ${total}::numeric >= 0
          returning available
        ), entries as (
          insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after)
          select e.id, ${first.tenantId}, ${first.mode}, ${currency}, e.amount, e.kind, e.reference_type, e.reference_id, moved.available - e.later
            from moved cross join jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                 as e(id text, amount numeric, kind text, reference_type text, reference_id text, later numeric)
        )
        select available::text as available from moved`),
    );
  let moved = await post();
  if (moved.length === 0) {
    // No balance row yet (first money of this tenant and mode), or not enough on it.
    const created = rowsOf(
      await tx.execute(sql`
        insert into balances (tenant_id, mode, currency, available) values (${first.tenantId}, ${first.mode}, ${currency}, 0)
        on conflict do nothing returning 1`),
    );
    if (created.length > 0 || new Decimal(total).gte(0)) moved = await post();
  }
  if (moved.length === 0) {
    const [row] = rowsOf<{ available: string }>(
      await tx.execute(sql`
        select available::text as available from balances
         where tenant_id = ${first.tenantId} and mode = ${first.mode} and currency = ${currency}`),
    );
    const available = new Decimal(row?.available ?? '0');
    throw opts.insufficient?.(available) ?? new ApiError('insufficient_balance', `Insufficient balance for a debit of ${new Decimal(total).neg().toFixed()} ${currency}.`);
  }
  return moved[0]!.available;
}

/** One entry: see postLedgerEntries. */
export async function postLedgerEntry(tx: Db, input: PostEntryInput, opts?: PostOptions) {
  return postLedgerEntries(tx, [input], opts);
}
