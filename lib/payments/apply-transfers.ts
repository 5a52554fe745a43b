import { inArray, sql } from 'drizzle-orm';
import { chainTransfers, invoices, type Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { RawRow } from '@/lib/db/raw-row';
import { textArray } from '@/lib/db/text-array';
import { Decimal } from '@/lib/money';
import { OPEN_STATUSES, statusForReceived, UNPAID_STATUSES } from '@/lib/invoices/transitions';
import { writeInvoiceEvents, type InvoiceEventItem } from '@/lib/invoices/write-invoice-events';

type Transfer = typeof chainTransfers.$inferSelect;

/**
 * Newly seen transfers (0 confirmations) move their invoices, in the
 * watcher's transaction, in chain order:
 * - unpaid and already past expiresAt by block time: EXPIRED first (invoice.expired);
 * - open: invoice.detected, then by total received PARTIALLY_PAID (invoice.partial),
 *   DETECTED (paid in full or within the invoice's underpayment tolerance, the
 *   shortfall recorded), or OVERPAID (invoice.overpaid);
 * - EXPIRED: invoice.late_payment; CONFIRMED or later: invoice.overpaid. The
 *   status stays; the transfer is flagged late and swept by a settlement of its own.
 * Batched (a handful of statements whatever the count) to keep a block's
 * processing short.
 */
export async function applyTransfers(tx: Db, transfers: Transfer[]) {
  if (transfers.length === 0) return;
  const ids = [...new Set(transfers.map((t) => t.invoiceId))].sort();
  const locked = await tx.select().from(invoices).where(inArray(invoices.id, ids)).orderBy(invoices.id).for('update');
  const state = new Map<string, Invoice>(locked.map((i) => [i.id, i]));
  const all = rowsOf<RawRow<typeof chainTransfers, { invoiceId: string }> & { total: string; hashes: string[] }>(
    await tx.execute(sql`
      select invoice_id, sum(amount)::text as total, array_agg(tx_hash order by block_number, log_index) as hashes
        from chain_transfers where invoice_id = any(${textArray(ids)}) group by invoice_id`),
  );
  const hashes = new Map(all.map((r) => [r.invoice_id, r.hashes]));
  // Received before this batch = total now minus the batch's own transfers.
  const received = new Map<string, Decimal>(all.map((r) => [r.invoice_id, new Decimal(r.total)]));
  for (const t of transfers) received.set(t.invoiceId, received.get(t.invoiceId)!.sub(t.amount));

  const out: InvoiceEventItem[] = [];
  const late: string[] = [];
  const now = new Date();
  for (const t of transfers) {
    let inv = state.get(t.invoiceId)!;
    const allHashes = hashes.get(inv.id) ?? [];
    const seen = [...new Set(allHashes.slice(0, allHashes.indexOf(t.txHash) + 1))];
    const emit = (type: InvoiceEventItem['type']) => out.push({ invoice: inv, type, txHashes: seen });
    if (UNPAID_STATUSES.includes(inv.status) && t.blockTime > inv.expiresAt) {
      inv = { ...inv, status: 'EXPIRED', updatedAt: now };
      emit('invoice.expired');
    }
    const total = received.get(inv.id)!.add(t.amount);
    received.set(inv.id, total);
    if (OPEN_STATUSES.includes(inv.status)) {
      const { status, amountShortfall } = statusForReceived(total, inv);
      inv = { ...inv, status, amountShortfall, amountReceived: total.toFixed(), updatedAt: now };
      emit('invoice.detected');
      if (status === 'PARTIALLY_PAID') emit('invoice.partial');
      if (status === 'OVERPAID') emit('invoice.overpaid');
    } else {
      late.push(t.id);
      // A shortfall accepted earlier shrinks as the payer tops up (it only ever records what is still missing).
      const amountShortfall = Decimal.max(0, Decimal.min(inv.amountShortfall, new Decimal(inv.amountExpected).sub(total))).toFixed();
      inv = { ...inv, amountReceived: total.toFixed(), amountShortfall, updatedAt: now };
      emit(inv.status === 'EXPIRED' ? 'invoice.late_payment' : 'invoice.overpaid');
    }
    state.set(inv.id, inv);
  }
  const changed = [...state.values()];
  await tx.execute(sql`
    update invoices i set status = v.status, amount_received = v.received::numeric, amount_shortfall = v.shortfall::numeric,
           updated_at = v.updated_at::timestamptz
      from (values ${sql.join(
        changed.map((c) => sql`(${c.id}, ${c.status}, ${c.amountReceived}, ${c.amountShortfall}, ${c.updatedAt.toISOString()})`),
        sql`, `,
      )}) as v(id, status, received, shortfall, updated_at)
     where i.id = v.id`);
  if (late.length) await tx.update(chainTransfers).set({ late: true }).where(inArray(chainTransfers.id, late));
  await writeInvoiceEvents(tx, out);
}
