import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import { chainTransfers, invoices, settlements, tenants, type Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { sweepableHeight } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import { createHeldPaymentSettlements } from './create-held-payment-settlements';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { settlementFee } from '@/lib/invoices/fee';
import { updateInvoice } from '@/lib/invoices/transitions';
import type { RawRow } from '@/lib/db/raw-row';
import { familyOf, type ChainFamily } from '@/lib/config/rails';
import { paidThreshold } from '@/lib/invoices/transitions';
import { mapLimit } from '@/lib/async/map-limit';

/** Invoices the fan-out settles at once: a few transactions side by side, well inside the pool (DB_POOL_MAX). */
const FAN_OUT_CONCURRENCY = 4;

/**
 * Blocks on top of a payment before its sweep may start, ahead of the payment's finality (issue 44); null: only
 * CONFIRMED invoices are swept. TRON: 0, at detection (the payment in a block), since solidification takes ~19
 * blocks (~57 s) and only the custody transfer's solidification gates crediting (finishSettlement's gate,
 * lib/settlements/early-sweep.ts). The sweep's first two steps (activate, delegate: one block each) then overlap
 * the blocks on top of the payment, and the custody transfer is signed two blocks after it at the earliest; a
 * payment a reorg takes meanwhile costs the activation, never a credit (refuseOrphanedSweep, the gate). Solana:
 * null, swept once `finalized` credits it (docs/solana.md §3).
 */
export const EARLY_SWEEP_DEPTH: Record<ChainFamily, number | null> = { evm: null, tron: 0, solana: null };

/**
 * What of a settlement's amount the merchant may give back without it costing them (issue 30 §2): for an
 * invoice that was paid, what arrives above the price still unsettled; for one that was not (expired, paid
 * late or in part), all of it. Its share of the invoice fee is swept to the hot wallet (heldFee).
 */
function givebackPart(invoice: Invoice, amount: Decimal): Decimal {
  if (invoice.status === 'EXPIRED') return amount;
  const settled = new Decimal(invoice.amountCredited).add(invoice.feeAmount);
  const priceLeft = Decimal.max(0, new Decimal(invoice.amountExpected).sub(settled));
  return Decimal.max(0, amount.sub(priceLeft));
}

/**
 * Settlement fan-out for one network, over the payments made on it (an
 * invoice's own, and others' credited from this network under their tenant's
 * wrong-network policy). Each confirmed invoice gets its payout
 * settlement and moves to PROCESSING_PAYOUT (invoice.processing_payout) in the
 * same transaction. Confirmed transfers nobody settled yet (late payments,
 * partial payments of expired invoices, extra payments after a payout) get an
 * `extra` settlement once the invoice has no other settlement running: money
 * is never left on a deposit address. Resolved held payments follow
 * (createHeldPaymentSettlements). Returns the new settlement ids.
 */
export async function createSettlements(db: Db, net: Network, opts: { limit?: number } = {}): Promise<string[]> {
  const height = await sweepableHeight(db, net);
  if (!height) return [];
  // No payment above the block the chain holds irreversible (TRON's solidified block), whatever its confirmations.
  const cursor = { lastBlock: height.cursor };
  const limit = opts.limit ?? 100;
  // A payment on the invoice's own network needs the invoice's confirmations; one credited from another network, this network's.
  const requiredSql = sql`(case when i.chain_id = ${net.chainId} then i.confirmations_required else ${net.confirmations} end)`;
  const early = EARLY_SWEEP_DEPTH[familyOf(net.chain)];
  // Paid in full on this network and in a block, not yet irreversible: swept early, credited once it is (the gate).
  const earlySql =
    early === null
      ? sql``
      : sql`union
      (select i.id from invoices i where i.chain_id = ${net.chainId} and i.mode = ${net.mode} and i.status in ('DETECTED', 'OVERPAID')
        and not exists (select 1 from settlements s where s.invoice_id = i.id and s.status in ('pending', 'processing'))
        order by i.updated_at limit ${limit})`;
  const candidates = rowsOf<RawRow<typeof invoices, { id: string }>>(
    await db.execute(sql`
      (select i.id from invoices i where i.chain_id = ${net.chainId} and i.mode = ${net.mode} and i.status = 'CONFIRMED'
        -- An early sweep still running (confirmed meanwhile) is no candidate: each pass would lock it for nothing.
        and not exists (select 1 from settlements s where s.invoice_id = i.id and s.status in ('pending', 'processing'))
        limit ${limit})
      union
      (select distinct t.invoice_id from chain_transfers t join invoices i on i.id = t.invoice_id
        where t.chain_id = ${net.chainId} and t.mode = ${net.mode} and t.settlement_id is null
          and i.chain_id <> ${net.chainId} and i.status = 'CONFIRMED'
        limit ${limit})
      union
      (select distinct t.invoice_id from chain_transfers t join invoices i on i.id = t.invoice_id
        where t.chain_id = ${net.chainId} and t.mode = ${net.mode} and t.settlement_id is null
          and t.block_number <= ${cursor.lastBlock} - ${requiredSql}
          and t.block_number <= ${height.final}
          and i.status in ('PAID_OUT', 'EXPIRED')
          and not exists (select 1 from settlements s where s.invoice_id = i.id and s.status in ('pending', 'processing'))
        limit ${limit})
      ${earlySql}`),
  );
  // A few invoices at a time, each in its own transaction (its invoice row locked, skipped if another holds it):
  // one at a time, a burst of payments waited in line behind each other's round trips (issue 44).
  const ids = await mapLimit(candidates, FAN_OUT_CONCURRENCY, ({ id }) =>
    db.transaction(async (tx) => {
      const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update', { skipLocked: true });
      if (!row) return null;
      const sweptEarly = early !== null && row.chainId === net.chainId && (row.status === 'DETECTED' || row.status === 'OVERPAID');
      if (!sweptEarly && !['CONFIRMED', 'PAID_OUT', 'EXPIRED'].includes(row.status)) return null;
      const [busy] = await tx
        .select({ id: settlements.id })
        .from(settlements)
        .where(and(eq(settlements.invoiceId, id), sql`${settlements.status} in ('pending', 'processing')`));
      if (busy) return null;
      const transfers = await tx
        .select()
        .from(chainTransfers)
        .where(
          and(
            eq(chainTransfers.invoiceId, id),
            // Only this network's payments: a settlement sweeps one network (another network's fan-out sweeps its own).
            eq(chainTransfers.chainId, net.chainId),
            isNull(chainTransfers.settlementId),
            ...(sweptEarly
              ? [lte(chainTransfers.blockNumber, cursor.lastBlock - (early ?? 0))]
              : [
                  lte(chainTransfers.blockNumber, cursor.lastBlock - (row.chainId === net.chainId ? row.confirmationsRequired : net.confirmations)),
                  lte(chainTransfers.blockNumber, height.final),
                ]),
          ),
        )
        .for('update');
      if (transfers.length === 0) return null;
      // Early, only once the payments in a block make the invoice paid: a part in the newest block waits for it.
      if (sweptEarly && transfers.reduce((a, t) => a.add(t.amount), new Decimal(0)).lt(paidThreshold(row))) return null;
      const confirmed = transfers;
      const amount = confirmed.reduce((s, t) => s.add(t.amount), new Decimal(0));
      const [tenant] = await tx.select({ rate: tenants.invoiceFeeRate }).from(tenants).where(eq(tenants.id, row.tenantId));
      const { fee, net: netAmount } = settlementFee(amount, tenant!.rate);
      // The fee on what the merchant may give back waits in the hot wallet, so a refund can return it (heldFee).
      const heldFee = Decimal.min(fee, settlementFee(givebackPart(row, amount), tenant!.rate).fee).toFixed();
      const kind = row.status === 'CONFIRMED' || sweptEarly ? 'invoice' : 'extra';
      const sid = newId('settlement');
      await tx.insert(settlements).values({
        id: sid,
        invoiceId: id,
        tenantId: row.tenantId,
        mode: row.mode,
        // Where the money is: a payment credited from another network is swept there.
        chainId: net.chainId,
        token: row.token,
        kind,
        amount: amount.toFixed(),
        feeAmount: fee,
        netAmount,
        heldFee,
        sweptEarly,
      });
      for (const t of confirmed) await tx.update(chainTransfers).set({ settlementId: sid }).where(eq(chainTransfers.id, t.id));
      // An early sweep leaves the invoice as it is: it moves on at its confirmation, or at the credit (finishSettlement).
      if (kind === 'invoice' && !sweptEarly) {
        const moved = await updateInvoice(tx, id, { status: 'PROCESSING_PAYOUT' });
        await emitInvoiceEvent(tx, moved, 'invoice.processing_payout');
      }
      return sid;
    }),
  );
  const created = ids.filter((sid) => sid !== null);
  // Then held payments the merchant resolved (credited in another token, or refunded): each swept on its own.
  return [...created, ...(await createHeldPaymentSettlements(db, net, opts))];
}
