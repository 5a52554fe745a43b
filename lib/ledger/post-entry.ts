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

/**
 * Appends a ledger entry and moves the balance in one statement pair; call it
 * inside the transaction of the state change that causes it. A debit that
 * would take the balance below zero throws insufficient_balance and changes
 * nothing (the conditional UPDATE is atomic under concurrency). The unique
 * (kind, referenceId) index makes a repeated post fail instead of counting twice.
 */
export async function postLedgerEntry(tx: Db, input: PostEntryInput) {
  const amount = new Decimal(input.amount);
  const currency = input.currency ?? 'USDT';
  await tx.execute(sql`
    insert into balances (tenant_id, mode, currency, available) values (${input.tenantId}, ${input.mode}, ${currency}, 0)
    on conflict do nothing`);
  const updated = rowsOf<{ available: string }>(
    await tx.execute(sql`
      update balances set available = available + ${amount.toFixed()}::numeric, updated_at = now()
       where tenant_id = ${input.tenantId} and mode = ${input.mode} and currency = ${currency}
         and available + ${amount.toFixed()}::numeric >= 0
      returning available::text as available`),
  );
  if (updated.length === 0) {
    throw new ApiError('insufficient_balance', `Insufficient balance for a debit of ${amount.neg().toFixed()} ${currency}.`);
  }
  const [entry] = await tx
    .insert(ledgerEntries)
    .values({
      id: newId('ledgerEntry'),
      tenantId: input.tenantId,
      mode: input.mode,
      currency,
      amount: amount.toFixed(),
      kind: input.kind,
      referenceType: input.referenceType,
      referenceId: input.referenceId,
      balanceAfter: updated[0]!.available,
    })
    .returning();
  return entry!;
}
