import { asc, eq, inArray } from 'drizzle-orm';
import { chainCursors, chainTransfers, events, heldPayments, settlements, settlementTxs } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getNetworks } from '@/lib/chain/network';
import { formatAmount } from './amount';
import { getInvoiceOrThrow } from './get-invoice-or-throw';
import { invoiceView } from './view';
import { heldPaymentEventData } from './held-payment-view';
import { latestEventType } from '@/lib/api/version-renderings';

/** GET /v1/invoices/:id: the invoice with its payments, settlements and event timeline. */
export async function getInvoice(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const row = await getInvoiceOrThrow(db, where);
  const [transfers, cursor, stls, timeline, strays] = await Promise.all([
    db
      .select()
      .from(chainTransfers)
      .where(eq(chainTransfers.invoiceId, row.id))
      .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex)),
    db.select({ chainId: chainCursors.chainId, lastBlock: chainCursors.lastBlock }).from(chainCursors).where(eq(chainCursors.mode, row.mode)),
    db.select().from(settlements).where(eq(settlements.invoiceId, row.id)).orderBy(asc(settlements.createdAt)),
    db
      .select({ id: events.id, type: events.type, data: events.data, createdAt: events.createdAt })
      .from(events)
      .where(eq(events.subjectId, row.id))
      .orderBy(asc(events.createdAt), asc(events.id)),
    db.select().from(heldPayments).where(eq(heldPayments.invoiceId, row.id)).orderBy(asc(heldPayments.blockNumber), asc(heldPayments.logIndex)),
  ]);
  const txs = stls.length
    ? await db
        .select()
        .from(settlementTxs)
        .where(
          inArray(
            settlementTxs.settlementId,
            stls.map((s) => s.id),
          ),
        )
        .orderBy(asc(settlementTxs.createdAt))
    : [];
  // Each payment's depth on its own network.
  const heads = new Map(cursor.map((c) => [c.chainId, c.lastBlock]));
  const chainOf = new Map(getNetworks(row.mode).map((n) => [n.chainId, n.chain]));
  const txHashes = [...new Set(transfers.map((t) => t.txHash))];
  const held = strays.map((m) => heldPaymentEventData(m, row));
  return {
    ...invoiceView(row, txHashes),
    payments: transfers.map((t) => ({
      chain: chainOf.get(t.chainId) ?? row.chain,
      txHash: t.txHash,
      logIndex: t.logIndex,
      amount: formatAmount(t.amount),
      blockNumber: t.blockNumber,
      confirmations: heads.has(t.chainId) ? Math.max(0, heads.get(t.chainId)! - t.blockNumber) : 0,
      late: t.late,
      createdAt: t.createdAt.toISOString(),
    })),
    settlements: stls.map((s) => ({
      id: s.id,
      kind: s.kind,
      status: s.status,
      token: s.token,
      amount: formatAmount(s.amount),
      feeAmount: formatAmount(s.feeAmount),
      netAmount: formatAmount(s.netAmount),
      txHashes: txs.filter((t) => t.settlementId === s.id).map((t) => t.txHash),
      createdAt: s.createdAt.toISOString(),
      completedAt: s.completedAt?.toISOString() ?? null,
    })),
    events: timeline.map((e) => ({
      id: e.id,
      // Its latest name (an event stored before a rename keeps its old one); older API versions rename it on the way out.
      type: latestEventType(e.type),
      status: ((e.data as { status?: string } | null)?.status ?? null) as string | null,
      createdAt: e.createdAt.toISOString(),
    })),
    heldPayments: held,
  };
}
