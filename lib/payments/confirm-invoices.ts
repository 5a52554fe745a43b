import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { chainTransfers, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import { getNetworks, type Network } from '@/lib/chain/network';
import { loadCursor } from '@/lib/chain/cursor';
import { Decimal } from '@/lib/money';
import { textArray } from '@/lib/db/text-array';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { lockInvoice, paidThreshold, updateInvoice } from '@/lib/invoices/transitions';

/**
 * DETECTED or OVERPAID invoices whose transfers that make the total reach the
 * paid threshold (expected less the tolerance) have `confirmationsRequired` blocks on top of them, counted
 * up to `height` (the watcher's cursor: every block up to it was checked for
 * reorgs), become CONFIRMED with invoice.confirmed. `opts.final` (TRON: the solidified block) is the
 * highest block the chain holds irreversible: a payment above it waits whatever its depth.
 */
export async function confirmInvoices(
  db: Db,
  net: Pick<Network, 'mode' | 'chainId' | 'confirmations'>,
  height: number,
  opts: { final?: number } = {},
): Promise<number> {
  // The network's invoices, and others paid on it (credited from here under their tenant's wrong-network policy).
  const candidates = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.mode, net.mode),
        inArray(invoices.status, ['DETECTED', 'OVERPAID']),
        or(
          eq(invoices.chainId, net.chainId),
          sql`exists (select 1 from ${chainTransfers} t where t.invoice_id = ${invoices.id} and t.chain_id = ${net.chainId})`,
        ),
      ),
    );
  let confirmed = 0;
  let depth: Awaited<ReturnType<typeof depthOnEachNetwork>> | undefined;
  // Every candidate's transfers in one read (one per invoice was a statement per DETECTED invoice per watcher pass).
  const all = candidates.length
    ? await db
        .select({
          invoiceId: chainTransfers.invoiceId,
          amount: chainTransfers.amount,
          blockNumber: chainTransfers.blockNumber,
          chainId: chainTransfers.chainId,
          blockTime: chainTransfers.blockTime,
        })
        .from(chainTransfers)
        .where(sql`${chainTransfers.invoiceId} = any(${textArray(candidates.map((c) => c.id))})`)
        .orderBy(asc(chainTransfers.blockTime), asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex))
    : [];
  const byInvoice = new Map<string, typeof all>();
  for (const t of all) byInvoice.set(t.invoiceId!, [...(byInvoice.get(t.invoiceId!) ?? []), t]);
  for (const inv of candidates) {
    const transfers = byInvoice.get(inv.id) ?? [];
    let sum = new Decimal(0);
    // The transfer that made it paid: within the underpayment tolerance counts (the same threshold as the status).
    const threshold = paidThreshold(inv);
    const reaching = transfers.find((t) => (sum = sum.add(t.amount)).gte(threshold));
    if (!reaching) continue;
    if (reaching.chainId === net.chainId) {
      if (opts.final !== undefined && reaching.blockNumber > opts.final) continue;
      if (height - reaching.blockNumber < (inv.chainId === net.chainId ? inv.confirmationsRequired : net.confirmations)) continue;
    } else {
      // Paid on another network (the tenant's wrong-network policy credited it): that network's cursor and confirmations.
      depth ??= await depthOnEachNetwork(db, net.mode);
      const other = depth.get(reaching.chainId);
      if (!other || other.height - reaching.blockNumber < other.confirmations) continue;
    }
    const done = await db.transaction(async (tx) => {
      const locked = await lockInvoice(tx, inv.id);
      if (locked.status !== 'DETECTED' && locked.status !== 'OVERPAID') return false;
      const row = await updateInvoice(tx, inv.id, { status: 'CONFIRMED' });
      await emitInvoiceEvent(tx, row, 'invoice.confirmed');
      return true;
    });
    if (done) confirmed++;
  }
  return confirmed;
}

/** Each enabled network's watched height and confirmations, by chain id; a network not enabled now is absent (nothing confirms on it). */
async function depthOnEachNetwork(db: Db, mode: Network['mode']) {
  const out = new Map<number, { height: number; confirmations: number }>();
  for (const n of getNetworks(mode)) {
    const cursor = await loadCursor(db, n);
    if (cursor) out.set(n.chainId, { height: cursor.lastBlock, confirmations: n.confirmations });
  }
  return out;
}
