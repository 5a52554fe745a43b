import { and, asc, eq, gt, inArray, or } from 'drizzle-orm';
import { formatUnits } from 'viem';
import { chainTransfers, invoices, type Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { saveCursor, saveFinalBlock } from '@/lib/chain/cursor';
import { tokensOf, type ReadyNetwork, type SolanaNetwork } from '@/lib/chain/network';
import { readDeposits, type SolanaDeposit } from '@/lib/chain/solana/read-deposits';
import { solanaRpc, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { familyOf } from '@/lib/config/rails';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { lockInvoice, OPEN_STATUSES, paidThreshold, updateInvoice } from '@/lib/invoices/transitions';
import { screenSenders } from '@/lib/screening/screen-senders';
import { applyTransfers } from './apply-transfers';
import { recordHeldPayment, type HeldTransfer } from './record-held-payment';

/** How long one Solana node read may take: a hung node fails the pass (retried next poll), it never stalls it. */
export const SOLANA_READ_TIMEOUT_MS = 10_000;
/** Expired invoices stay watched this long, so a payment landing after expiry is recorded as late, not lost. */
const LATE_WINDOW_MS = 24 * 3600_000;
/** Deposit accounts read at once. */
const READS_AT_ONCE = 8;
/**
 * The cursor's time trails the pass's start by this much: a transaction whose block time (the leader's clock) is
 * just before the start may not be `confirmed` yet when its account is read, and expiry compares with this time.
 */
const CONFIRM_MARGIN_MS = 5_000;

type SolanaWatchNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress', SolanaNetwork>;

/**
 * One watcher pass for a Solana network (docs/solana.md §3, §6.1). There is no log scan by block range: each watched
 * invoice's deposit owner has its own associated token account per mint, so the pass reads those accounts'
 * payments (readDeposits, at `confirmed`) and attributes them by where they landed. A payment is recorded, keyed
 * by its signature, when it is first listed at `confirmed` (DETECTED, through applyTransfers as on the other
 * families), and the invoice is CONFIRMED only once the node reports every payment that makes it paid `finalized`:
 * finality by commitment replaces the confirmation count and the reorg walk-back by block hash. A payment that never
 * finalizes is never credited. Every failed read throws before anything is written: the cursor (the `confirmed`
 * slot and its blockhash, whose time expiry compares with) only moves with a complete pass.
 */
export async function watchSolana(db: Db, net: SolanaWatchNetwork, opts: { rpc?: SolanaRpc } = {}) {
  const rpc = opts.rpc ?? solanaRpc(net.rpcUrl, { timeoutMs: SOLANA_READ_TIMEOUT_MS });
  const started = Date.now();
  // The finalized slot first: every payment the reads call finalized is at or below a slot read after it.
  const finalSlot = await rpc.call('getSlot', [{ commitment: 'finalized' }]);
  const latest = await rpc.call('getLatestBlockhash', [{ commitment: 'confirmed' }]);
  const watched = await db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.mode, net.mode),
        eq(invoices.chainId, net.chainId),
        or(inArray(invoices.status, OPEN_STATUSES), and(eq(invoices.status, 'EXPIRED'), gt(invoices.expiresAt, new Date(started - LATE_WINDOW_MS)))),
      ),
    );
  const tokens = tokensOf(net);
  const seen: { inv: Invoice; token: (typeof tokens)[number]; logIndex: number; d: SolanaDeposit }[] = [];
  const jobs = watched.flatMap((inv) => tokens.map((token, logIndex) => ({ inv, token, logIndex })));
  for (let i = 0; i < jobs.length; i += READS_AT_ONCE) {
    const reads = await Promise.all(
      jobs.slice(i, i + READS_AT_ONCE).map(async (j) => {
        const owner = ADDRESS_CODECS.solana.parse(j.inv.depositAddress);
        const { deposits } = await readDeposits(rpc, { owner, mint: ADDRESS_CODECS.solana.parse(j.token.address) });
        return deposits.map((d) => ({ ...j, d }));
      }),
    );
    seen.push(...reads.flat());
  }
  seen.sort((a, b) => a.d.slot - b.d.slot || a.logIndex - b.logIndex);

  const stopped = await screenSenders(familyOf(net.chain), new Set(seen.flatMap((s) => s.d.senders)));
  const transfers: HeldTransfer[] = seen.map(({ inv, token, logIndex, d }) => ({
    token,
    txHash: d.signature,
    // One deposit account per mint: the token's position keeps a transaction paying two mints two rows.
    logIndex,
    blockNumber: d.slot,
    // Solana is not walked back by block hash (finality is the node's commitment); the slot's hash is not read.
    blockHash: '',
    blockTime: new Date((d.blockTime ?? Math.floor(started / 1000)) * 1000),
    from: d.senders[0] ?? '',
    to: inv.depositAddress,
    value: d.amount,
    invoiceId: inv.id,
    screened: d.senders.some((s) => stopped.has(s)),
  }));
  const byId = new Map(watched.map((i) => [i.id, i]));
  const own = transfers.filter((t) => !t.screened && t.token.asset === byId.get(t.invoiceId)!.token);
  const held = transfers.filter((t) => !own.includes(t));

  let inserted = 0;
  await db.transaction(async (tx) => {
    if (own.length > 0) {
      const rows = await tx
        .insert(chainTransfers)
        .values(
          own.map((t) => ({
            id: newId('payment'),
            mode: net.mode,
            chainId: net.chainId,
            txHash: t.txHash,
            logIndex: t.logIndex,
            blockNumber: t.blockNumber,
            blockHash: t.blockHash,
            blockTime: t.blockTime,
            fromAddress: t.from,
            toAddress: t.to,
            amount: formatUnits(t.value, t.token.decimals),
            token: t.token.asset,
            invoiceId: t.invoiceId,
            tenantId: byId.get(t.invoiceId)!.tenantId,
          })),
        )
        .onConflictDoNothing()
        .returning();
      inserted = rows.length;
      rows.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
      await applyTransfers(tx, rows);
    }
    if (held.length > 0) inserted += await recordHeldPayment(tx, net, held);
    await saveCursor(tx, net, {
      lastBlock: latest.context.slot,
      lastBlockHash: latest.value.blockhash,
      lastBlockTime: new Date(started - CONFIRM_MARGIN_MS),
    });
  });
  await saveFinalBlock(db, net, finalSlot);
  const finalized = new Set(seen.filter((s) => s.d.status === 'finalized').map((s) => `${s.d.signature}:${s.logIndex}`));
  const confirmed = await confirmFinalized(db, [...byId.keys()], finalized);
  return { head: latest.context.slot, cursor: latest.context.slot, scanned: jobs.length, matched: inserted, confirmed };
}

/**
 * DETECTED or OVERPAID invoices among `ids` whose payments up to the one that makes them paid (the same threshold
 * as the status) are all in `finalized` (`signature:logIndex`, as this pass read them) become CONFIRMED with
 * invoice.confirmed.
 */
async function confirmFinalized(db: Db, ids: string[], finalized: ReadonlySet<string>): Promise<number> {
  if (ids.length === 0) return 0;
  const candidates = await db
    .select()
    .from(invoices)
    .where(and(inArray(invoices.id, ids), inArray(invoices.status, ['DETECTED', 'OVERPAID'])));
  // Every candidate's payments in one read, in the order confirmInvoices sums them.
  const all = candidates.length
    ? await db
        .select({
          invoiceId: chainTransfers.invoiceId,
          txHash: chainTransfers.txHash,
          logIndex: chainTransfers.logIndex,
          amount: chainTransfers.amount,
        })
        .from(chainTransfers)
        .where(
          inArray(
            chainTransfers.invoiceId,
            candidates.map((c) => c.id),
          ),
        )
        .orderBy(asc(chainTransfers.blockTime), asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex))
    : [];
  const byInvoice = new Map<string, typeof all>();
  for (const t of all) byInvoice.set(t.invoiceId, [...(byInvoice.get(t.invoiceId) ?? []), t]);
  let confirmed = 0;
  for (const inv of candidates) {
    const paid = byInvoice.get(inv.id) ?? [];
    let sum = new Decimal(0);
    const threshold = paidThreshold(inv);
    const upTo = paid.findIndex((t) => (sum = sum.add(t.amount)).gte(threshold));
    if (upTo < 0 || !paid.slice(0, upTo + 1).every((t) => finalized.has(`${t.txHash}:${t.logIndex}`))) continue;
    const done = await db.transaction(async (tx) => {
      const locked = await lockInvoice(tx, inv.id);
      if (locked.status !== 'DETECTED' && locked.status !== 'OVERPAID') return false;
      await emitInvoiceEvent(tx, await updateInvoice(tx, inv.id, { status: 'CONFIRMED' }), 'invoice.confirmed');
      return true;
    });
    if (done) confirmed++;
  }
  return confirmed;
}
