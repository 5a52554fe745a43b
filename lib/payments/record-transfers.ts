import { sql } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { chainTransfers, invoices } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { RawRow } from '@/lib/db/raw-row';
import { textArray } from '@/lib/db/text-array';
import { newId } from '@/lib/ids';
import { saveCursor } from '@/lib/chain/cursor';
import { tokensOf, type Network, type TokenContract } from '@/lib/chain/network';
import type { ScannedRange } from '@/lib/chain/scan-chain';
import type { TokenTransfer } from '@/lib/chain/transfer-logs';
import { applyTransfers } from './apply-transfers';
import { recordHeldPayment } from './record-held-payment';
import { familyOf } from '@/lib/config/rails';
import { screenSenders } from '@/lib/screening/screen-senders';

/**
 * The invoices pipeline's record step for one scanned block range (transfers decoded by the chain
 * adapter, either family): keep the network's tokens, match recipients against deposit addresses with
 * one indexed query (cost independent of the number of open invoices), then insert the matches, move
 * invoice states and advance the cursor in one transaction. A rescan or restart inserts nothing
 * twice: transfers are unique by (chain, txHash, logIndex).
 */
export async function recordTransfers(db: Db, net: Network, range: ScannedRange) {
  // By the contract's 20 bytes: a TRON transfer names its token `41…`, the network keeps its address as `0x…`.
  const contracts = new Map(tokensOf(net).map((c) => [c.address.slice(-40).toLowerCase(), c]));
  const transfers: (TokenTransfer & { token: TokenContract })[] = [];
  const recipients = new Set<string>();
  for (const t of range.transfers) {
    const token = contracts.get(t.token.slice(-40));
    if (token && t.value > 0n) {
      transfers.push({ ...t, token });
      recipients.add(t.to);
    }
  }
  // Any invoice of the mode, whichever network it is on: the same deposit address exists on every EVM chain
  // (a TRON address, `41…`, only ever matches a TRON invoice's).
  const owners = new Map<string, Owner>();
  if (recipients.size > 0) {
    const rows = rowsOf<
      RawRow<typeof invoices, { id: string; tenantId: string; depositAddress: string; chainId: number; token: string }> & {
        wrong_network_policy: string;
      }
    >(
      await db.execute(sql`
        select i.id, i.tenant_id, i.deposit_address, i.chain_id, i.token, t.wrong_network_policy
          from invoices i join tenants t on t.id = i.tenant_id
         where i.mode = ${net.mode} and i.deposit_address = any(${textArray(recipients)})`),
    );
    for (const r of rows)
      owners.set(r.deposit_address, {
        id: r.id,
        tenantId: r.tenant_id,
        chainId: Number(r.chain_id),
        token: r.token,
        creditOtherNetwork: r.wrong_network_policy === 'credit',
      });
  }
  const ordered = transfers.filter((t) => owners.has(t.to)).sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  // The invoice's token counts towards it: on its network, and on another one under the tenant's `credit` policy
  // (then settled on the network it came on). Another token never does (its price differs): held.
  // Senders on the SDN snapshot or stopped by an enabled adapter (lib/screening): held for review whatever the rail,
  // never counted. Each distinct sender once per pass, before the transaction (an adapter's wait holds no lock).
  const senders = new Set<string>();
  for (const t of ordered) senders.add(t.from);
  const stopped = await screenSenders(familyOf(net.chain), senders);
  const screened = (t: (typeof ordered)[number]) => stopped.size > 0 && stopped.has(t.from);
  const isOwn = (t: (typeof ordered)[number]) => {
    const o = owners.get(t.to)!;
    return !screened(t) && o.token === t.token.asset && (o.chainId === net.chainId || o.creditOtherNetwork);
  };
  const matched = ordered.filter(isOwn);
  const held = ordered.filter((t) => !isOwn(t));
  const times = new Map<number, number>();
  for (const t of ordered) {
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
            amount: formatUnits(t.value, t.token.decimals),
            token: t.token.asset,
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
    if (held.length > 0) {
      inserted += await recordHeldPayment(
        tx,
        net,
        held.map((t) => ({
          ...t,
          invoiceId: owners.get(t.to)!.id,
          blockTime: new Date(times.get(t.blockNumber)! * 1000),
          screened: screened(t),
        })),
      );
    }
    await saveCursor(tx, net, range.to);
  });
  return { decoded: transfers.length, matched: matched.length + held.length, inserted };
}

interface Owner {
  id: string;
  tenantId: string;
  chainId: number;
  token: string;
  creditOtherNetwork: boolean;
}
