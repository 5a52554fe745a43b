import { sql } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { heldPayments, type HeldPayment } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { textArray } from '@/lib/db/text-array';
import { accountBytes } from '@/lib/chain/address-codecs';
import type { Network, TokenContract } from '@/lib/chain/network';
import { familyOf, isAsset, isChainKey, type Asset, type ChainKey } from '@/lib/config/rails';
import { recordDecision } from '@/lib/screening/record-decision';
import { screenAddress } from '@/lib/screening/screen-address';
import type { TokenTransfer } from '@/lib/chain/transfer-logs';
import { outbox } from '@/lib/events/outbox';
import { heldPaymentEventData } from '@/lib/invoices/held-payment-view';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';

/** screened: the sender is on the SDN snapshot (held for a compliance review, mismatch `screening`). */
export type HeldTransfer = TokenTransfer & { token: TokenContract; invoiceId: string; blockTime: Date; screened?: boolean };

/**
 * Records supported-token payments to an invoice's deposit address that are not
 * on the invoice's rail (another network, or another token) in the watcher's
 * transaction: held apart from the invoice's payments, never counted towards it,
 * announced by held_payment.detected once per log. Returns how many were new.
 */
export async function recordHeldPayment(tx: Db, net: Network, transfers: HeldTransfer[]): Promise<number> {
  const invoices = new Map<string, { tenantId: string; chainId: number; token: Asset; mode: Mode; chain: ChainKey }>();
  for (const row of rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select id, tenant_id, chain_id, token, mode, chain from invoices
       where id = any(${textArray(new Set(transfers.map((t) => t.invoiceId)))})`),
  )) {
    // A raw row: the rail is checked against the rails table, not cast (the column's CHECK makes a miss impossible).
    if (!isChainKey(row.chain) || !isAsset(row.token))
      throw new Error(`invoice ${String(row.id)}: unknown rail ${String(row.chain)}:${String(row.token)}`);
    invoices.set(String(row.id), {
      tenantId: String(row.tenant_id),
      chainId: Number(row.chain_id),
      token: row.token,
      mode: row.mode as Mode,
      chain: row.chain,
    });
  }
  const rows = await tx
    .insert(heldPayments)
    .values(
      transfers.map((t) => {
        const inv = invoices.get(t.invoiceId)!;
        return {
          id: newId('payment'),
          mode: net.mode,
          chainId: net.chainId,
          chain: net.chain,
          token: t.token.asset,
          // The contract's 20 bytes (lower-case `0x…`), whichever family's form the network writes it in.
          tokenAddress: accountBytes(t.token.address),
          txHash: t.txHash,
          logIndex: t.logIndex,
          blockNumber: t.blockNumber,
          blockHash: t.blockHash,
          blockTime: t.blockTime,
          fromAddress: t.from,
          toAddress: t.to,
          amount: formatUnits(t.value, t.token.decimals),
          invoiceId: t.invoiceId,
          tenantId: inv.tenantId,
          mismatch: t.screened ? ('screening' as const) : inv.token !== t.token.asset ? ('token' as const) : ('network' as const),
        };
      }),
    )
    .onConflictDoNothing()
    .returning();
  const seen = new Set(rows.map((r) => `${r.txHash}:${r.logIndex}`));
  const moved = await moveReorged(
    tx,
    net,
    transfers.filter((t) => !seen.has(`${t.txHash}:${t.logIndex}`)),
  );
  // Block hashes for the reorg walk-back, as for the invoice's own payments.
  const blocks = [...new Map([...rows, ...moved].map((r) => [r.blockNumber, r.blockHash])).entries()];
  if (blocks.length === 0) return 0;
  await tx.execute(sql`
    insert into chain_blocks (mode, chain_id, number, hash)
    values ${sql.join(
      blocks.map(([n, h]) => sql`(${net.mode}, ${net.chainId}, ${n}, ${h})`),
      sql`, `,
    )}
    on conflict (mode, chain_id, number) do update set hash = excluded.hash`);
  if (rows.length === 0) return 0;
  await outbox.write(
    tx,
    outbox.orderedRows(
      rows.map((r) => ({
        tenantId: r.tenantId,
        mode: r.mode,
        // A screening hold tells the merchant it is held for review, nothing about the list.
        type: r.mismatch === 'screening' ? ('payment.screening_hold' as const) : ('held_payment.detected' as const),
        subjectId: r.invoiceId,
        data: heldPaymentEventData(r, invoices.get(r.invoiceId)!),
      })),
    ),
  );
  for (const r of rows.filter((r) => r.mismatch === 'screening')) {
    const s = screenAddress(familyOf(r.chain), r.fromAddress);
    await recordDecision(tx, s, { tenantId: r.tenantId, mode: r.mode, subject: 'payer', path: 'payment', outcome: 'held', targetId: r.id });
  }
  return rows.length;
}

/**
 * A payment kept and flagged by a deep reorg (dropHeldPayments) and now mined again: its row moves to
 * the block it is in now, and stays what it was (credited, refunded): never a second held payment.
 */
async function moveReorged(tx: Db, net: Network, again: HeldTransfer[]): Promise<{ blockNumber: number; blockHash: string }[]> {
  if (again.length === 0) return [];
  const rows = rowsOf<{ block_number: string; block_hash: string }>(
    await tx.execute(sql`
      update mismatched_payments m
         set block_number = v.block_number, block_hash = v.block_hash, block_time = v.block_time
        from (values ${sql.join(
          again.map(
            (t) => sql`(${t.txHash}, ${t.logIndex}::int, ${t.blockNumber}::bigint, ${t.blockHash}, ${t.blockTime.toISOString()}::timestamptz)`,
          ),
          sql`, `,
        )}) as v(tx_hash, log_index, block_number, block_hash, block_time)
       where m.chain_id = ${net.chainId} and m.tx_hash = v.tx_hash and m.log_index = v.log_index
         and m.reorged_at is not null and m.block_hash <> v.block_hash
      returning m.id, m.block_number::text, m.block_hash`),
  );
  return rows.map((r) => ({ blockNumber: Number(r.block_number), blockHash: r.block_hash }));
}

/** held_payment.credited / .refunded / .refund_failed: the merchant's decision (and how a send-back ended) on a held payment, in the transaction that records it. */
export async function emitHeldPaymentEvent(
  tx: Db,
  type: 'held_payment.credited' | 'held_payment.refunded' | 'held_payment.refund_failed',
  row: HeldPayment,
  invoice: { chain: ChainKey; token: Asset },
) {
  await outbox.write(tx, [
    outbox.row({ tenantId: row.tenantId, mode: row.mode, type, subjectId: row.invoiceId, data: heldPaymentEventData(row, invoice) }),
  ]);
}
