import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { Decimal } from '@/lib/money';
import { ledgerPostSql, type PostEntryInput } from './ledger-post-sql';

export type { PostEntryInput };

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
  if (entries.length === 0) return undefined;
  const { ctes, total, tenantId, mode, currency } = ledgerPostSql(entries);
  const post = async () => rowsOf<{ available: string }>(await tx.execute(sql`with ${ctes} select available::text as available from moved`));
  let moved = await post();
  if (moved.length === 0) {
    // No balance row yet (first money of this tenant and mode), or not enough on it.
    const created = rowsOf(
      await tx.execute(sql`
        insert into balances (tenant_id, mode, currency, available) values (${tenantId}, ${mode}, ${currency}, 0)
        on conflict do nothing returning 1`),
    );
    if (created.length > 0 || new Decimal(total).gte(0)) moved = await post();
  }
  if (moved.length === 0) {
    const [row] = rowsOf<{ available: string }>(
      await tx.execute(sql`
        select available::text as available from balances
         where tenant_id = ${tenantId} and mode = ${mode} and currency = ${currency}`),
    );
    const available = new Decimal(row?.available ?? '0');
    throw (
      opts.insufficient?.(available) ??
      new ApiError('insufficient_balance', `Insufficient balance for a debit of ${new Decimal(total).neg().toFixed()} ${currency}.`)
    );
  }
  return moved[0]!.available;
}

/** One entry: see postLedgerEntries. */
export async function postLedgerEntry(tx: Db, input: PostEntryInput, opts?: PostOptions) {
  return postLedgerEntries(tx, [input], opts);
}
