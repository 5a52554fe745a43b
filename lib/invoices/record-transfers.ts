import { sql } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { chainTransfers, invoices } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { RawRow } from '@/lib/db/raw-row';
import { textArray } from '@/lib/db/text-array';
import { newId } from '@/lib/ids';
import { saveCursor } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import type { ScannedRange } from '@/lib/chain/scan-chain';
import { decodeTransfer, type TokenTransfer } from '@/lib/chain/transfer-logs';
import { applyTransfers } from './apply-transfers';

/**
 * The invoices pipeline's record step for one scanned block range: decode, match recipients
 * against deposit addresses with one indexed query (cost independent of the
 * number of open invoices), then insert the matches, move invoice states and
 * advance the cursor in one transaction. A rescan or restart inserts nothing
 * twice: transfers are unique by (chain, txHash, logIndex).
 */
export async function recordTransfers(db: Db, net: Pick<Network, 'mode' | 'chainId' | 'decimals'>, range: ScannedRange) {
  const transfers: TokenTransfer[] = [];
  const recipients = new Set<string>();
  for (const log of range.logs) {
    if (log.removed) continue;
    const t = decodeTransfer(log);
    if (t && t.value > 0n) {
      transfers.push(t);
      recipients.add(t.to);
    }
  }
  const owners = new Map<string, { id: string; tenantId: string }>();
  if (recipients.size > 0) {
    const rows = rowsOf<RawRow<typeof invoices, { id: string; tenantId: string; depositAddress: string }>>(
      await db.execute(sql`
        select id, tenant_id, deposit_address from invoices
         where chain_id = ${net.chainId} and mode = ${net.mode}
           and deposit_address = any(${textArray(recipients)})`),
    );
    for (const r of rows) owners.set(r.deposit_address, { id: r.id, tenantId: r.tenant_id });
  }
  const matched = transfers.filter((t) => owners.has(t.to)).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  const times = new Map<number, number>();
  for (const t of matched) {
    if (!times.has(t.blockNumber)) times.set(t.blockNumber, t.blockTimestamp ?? (await range.blockTime(t.blockNumber)));
  }

  let inserted = 0;
  await db.transaction(async (tx) => {
    if (matched.length > 0) {
      const rows = await tx
        .insert(chainTransfers)
        .values(
          matched.map((t) => ({
            id: newId('payment'),
            mode: net.mode,
            chainId: net.chainId,
            txHash: t.txHash,
            logIndex: t.logIndex,
            blockNumber: t.blockNumber,
            blockHash: t.blockHash,
            blockTime: new Date(times.get(t.blockNumber)! * 1000),
            fromAddress: t.from,
            toAddress: t.to,
            amount: formatUnits(t.value, net.decimals),
            invoiceId: owners.get(t.to)!.id,
            tenantId: owners.get(t.to)!.tenantId,
          })),
        )
        .onConflictDoNothing()
        .returning();
      inserted = rows.length;
      rows.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
      // Hashes of the blocks holding transfers, for the reorg walk-back.
      const blocks = [...new Map(rows.map((r) => [r.blockNumber, r.blockHash])).entries()];
      if (blocks.length) {
        await tx.execute(sql`
          insert into chain_blocks (mode, chain_id, number, hash)
          values ${sql.join(
            blocks.map(([n, h]) => sql`(${net.mode}, ${net.chainId}, ${n}, ${h})`),
            sql`, `,
          )}
          on conflict (mode, chain_id, number) do update set hash = excluded.hash`);
      }
      await applyTransfers(tx, rows);
    }
    await saveCursor(tx, net, range.to);
  });
  return { decoded: transfers.length, matched: matched.length, inserted };
}
