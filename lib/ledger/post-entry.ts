import { sql } from 'drizzle-orm';
import { ledgerEntries } from '@/db/schema';
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
 * balance by their sum in one conditional UPDATE; call it inside the
 * transaction of the state change that causes them. A net debit that would
 * take the balance below zero throws insufficient_balance and changes nothing
 * (the UPDATE is atomic under concurrency, and the row lock it takes is what
 * serialises a tenant's debits: call it last in the transaction so the lock
 * is held only for the entries and the commit). The unique (kind, referenceId)
 * index makes a repeated post fail instead of counting twice.
 */
export async function postLedgerEntries(tx: Db, entries: PostEntryInput[], opts: PostOptions = {}) {
  const first = entries[0];
  if (!first) return [];
  const currency = first.currency ?? 'USDT';
  if (entries.some((e) => e.tenantId !== first.tenantId || e.mode !== first.mode || (e.currency ?? 'USDT') !== currency)) {
    throw new Error('postLedgerEntries: entries must share tenant, mode and currency');
  }
  const total = entries.reduce((sum, e) => sum.plus(e.amount), new Decimal(0));
  const move = async () =>
    rowsOf<{ available: string }>(
      await tx.execute(sql`
        update balances set available = available + ${total.toFixed()}::numeric, updated_at = now()
         where tenant_id = ${first.tenantId} and mode = ${first.mode} and currency = ${currency}
           and available + ${total.toFixed()}::numeric >= 0
        returning available::text as available`),
    );
  let updated = await move();
  if (updated.length === 0) {
    // No balance row yet (first money of this tenant and mode), or not enough on it.
    const created = rowsOf(
      await tx.execute(sql`
        insert into balances (tenant_id, mode, currency, available) values (${first.tenantId}, ${first.mode}, ${currency}, 0)
        on conflict do nothing returning 1`),
    );
    if (created.length > 0 || total.gte(0)) updated = await move();
  }
  if (updated.length === 0) {
    const [row] = rowsOf<{ available: string }>(
      await tx.execute(sql`
        select available::text as available from balances
         where tenant_id = ${first.tenantId} and mode = ${first.mode} and currency = ${currency}`),
    );
    const available = new Decimal(row?.available ?? '0');
    throw opts.insufficient?.(available) ?? new ApiError('insufficient_balance', `Insufficient balance for a debit of ${total.neg().toFixed()} ${currency}.`);
  }
  // balance_after of each entry: the final balance minus the entries that follow it.
  let after = new Decimal(updated[0]!.available);
  const afters: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    afters[i] = after.toFixed();
    after = after.minus(entries[i]!.amount);
  }
  return tx
    .insert(ledgerEntries)
    .values(
      entries.map((e, i) => ({
        id: newId('ledgerEntry'),
        tenantId: e.tenantId,
        mode: e.mode,
        currency,
        amount: new Decimal(e.amount).toFixed(),
        kind: e.kind,
        referenceType: e.referenceType,
        referenceId: e.referenceId,
        balanceAfter: afters[i]!,
      })),
    )
    .returning();
}

/** One entry: see postLedgerEntries. */
export async function postLedgerEntry(tx: Db, input: PostEntryInput, opts?: PostOptions) {
  const [entry] = await postLedgerEntries(tx, [input], opts);
  return entry!;
}
