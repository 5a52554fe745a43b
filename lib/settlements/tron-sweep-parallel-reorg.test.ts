import { eq } from 'drizzle-orm';
import type { TronNetwork } from '@/lib/chain/network';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, ledgerEntries, settlements, settlementTxs, type SettlementStep } from '@/db/schema';
import { parseTronAddress } from '@/lib/chain/tron/address';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { buildTrc20Transfer, signTronTx } from '@/lib/chain/tron/transactions';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { Decimal } from '@/lib/money';
import { watchTron } from '@/lib/payments/watch-tron';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { depositOnChain } from '@/lib/testing/tron-sweep-chain';
import { createSettlements } from './create-settlements';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';

/*
 * tron-sweep-reorg.test.ts with early sweeps side by side (issue 44): three invoices of two tenants paid, their
 * sweeps begun at once and each stopped with its custody transfer in a block, not solidified; then a reorg replaces
 * every block from the first payment's up, dropping one payment (a double spend) and putting the other two back.
 * The dropped one is never credited and its deposit sends nothing; the others are credited once, one transfer each.
 */
let rail: TronRail;
let net: SettleNetwork<TronNetwork>;
beforeAll(async () => {
  rail = await startTronRail({ node: { reorgs: true } });
  net = rail.net;
  await rail.node.mintUsdt(rail.node.keys.other.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

type Db = Awaited<ReturnType<typeof createTestTenant>>['db'];
const payer = () => rail.node.keys.other;
const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);
const watch = (db: Db) => watchTron(db, net, { baseBackoffMs: 1, maxRetries: 1 });

/**
 * The payer's transfers, all signed against the head before the first is sent: each would otherwise reference the
 * block of the one before (the stand-in mines a block per broadcast), which the reorg replaces, and TaPoS would keep
 * it out of the new branch (a payment leaving the chain for a reason the test does not mean).
 */
async function payAll(to: { invoice: { depositAddress: string }; units: bigint }[]): Promise<string[]> {
  const { head } = await readTronHeads(rail.client);
  const ids: string[] = [];
  for (const p of to) {
    const unsigned = await buildTrc20Transfer({
      token: rail.node.usdtHex,
      from: payer().hex,
      to: TRON_ADDRESS_CODEC.parse(p.invoice.depositAddress),
      amount: p.units,
      feeLimitSun: 100_000_000,
      ref: head,
      lifetimeMs: 60_000,
    });
    const signed = await signTronTx(unsigned, payer().privateKey, head.number);
    await broadcastTronTx(rail.client, signed);
    ids.push(signed.txId);
  }
  return ids;
}

/** Runs the watcher and the settlement jobs (the janitor too) over `blocks` more blocks, each pass mining one. */
async function runJobs(db: Db, blocks: number) {
  const hooks: SettleHooks = {
    onWait: async () => {
      await rail.node.mine(1);
      await watch(db);
    },
  };
  for (let i = 0; i < blocks; i++) {
    await rail.node.mine(1);
    await watch(db);
    await createSettlements(db, net);
    await runSettlements(db, net, { hooks, retry: { maxAttempts: 3, backoffMs: 1 }, concurrency: 4 });
    await reclaimSweepResources(db, net, hooks).catch(() => undefined);
  }
}

describe('parallel TRON early sweeps and a reorg (issue 44)', () => {
  it('three sweeps begun at once; the reorg drops one payment: that one is never credited, the two others once each', async () => {
    const a = await createTestTenant({ invoiceFeeRate: '0.01' });
    const b = await createTestTenant({ invoiceFeeRate: '0.01' });
    const db = a.db;
    await watch(db);
    const paid: { tenant: typeof a; units: bigint; invoice: { id: string; depositAddress: string }; deposit: string; paymentTx?: string }[] = [];
    const before = { payer: await usdt(payer().hex), hot: await usdt(rail.node.keys.hot.hex) };
    for (const [tenant, amount] of [
      [a, '25'],
      [b, '26'],
      [a, '27'],
    ] as const) {
      const res = await call('POST', '/v1/invoices', { key: tenant.test, body: { amount, chain: 'TRON', token: 'USDT' } });
      expect(res.status, res.text).toBe(201);
      const invoice = res.body as { id: string; depositAddress: string };
      const units = BigInt(amount) * 1_000_000n;
      // The stored `41…` form of the deposit address (the API answers `T…`).
      const deposit = parseTronAddress(invoice.depositAddress);
      paid.push({ tenant, units, invoice, deposit });
    }
    for (const [i, tx] of (await payAll(paid)).entries()) paid[i]!.paymentTx = tx;
    await rail.node.mine(1);
    await watch(db);
    await createSettlements(db, net);
    const ids: string[] = [];
    for (const p of paid) {
      const [s] = await db.select().from(settlements).where(eq(settlements.invoiceId, p.invoice.id));
      expect(s).toMatchObject({ sweptEarly: true, kind: 'invoice' });
      ids.push(s!.id);
    }

    // The three sweeps side by side, each stopped (as a worker between two looks) once its custody transfer is sent.
    const sent = new Set<string>();
    const stopAtCustody: SettleHooks = {
      beforeBroadcast: (step: SettlementStep, id: string) => {
        if (step === 'custody') sent.add(id);
      },
      onWait: async (_step: SettlementStep, id: string) => {
        if (sent.has(id)) throw new Error('worker stopped while the custody transfer waits for solidification');
        await rail.node.mine(1);
      },
    };
    const begun = await Promise.allSettled(ids.map((id) => settleInvoice(db, net, id, stopAtCustody)));
    expect(begun.map((r) => (r.status === 'rejected' ? String(r.reason) : 'completed'))).toEqual(
      ids.map(() => expect.stringMatching(/worker stopped/)),
    );
    const block = (tx: string) => rail.node.chain.txs.get(tx)!.blockNumber;
    const first = Math.min(...paid.map((p) => block(p.paymentTx!)));
    for (const id of ids) {
      const custody = (await db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, id))).find((r) => r.step === 'custody')!;
      expect(block(custody.txHash)).toBeGreaterThan(rail.node.chain.solid.number);
    }
    expect(first).toBeGreaterThan(rail.node.chain.solid.number);

    // The middle payment is double spent: a new branch from the first payment's block up, without it.
    const [kept1, dropped, kept2] = paid;
    const depth = rail.node.chain.head.number - first + 1;
    const reorged = await rail.node.reorg(depth, { drop: [dropped!.paymentTx!] });
    expect(reorged.dropped).toEqual([dropped!.paymentTx!]);
    await rail.node.mine(depth + 1);
    await runJobs(db, 30);

    const [lost] = await db.select().from(settlements).where(eq(settlements.id, ids[1]!));
    expect(lost!.status).toBe('failed');
    expect(lost!.lastError).toMatch(/left the chain/);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, ids[1]!))).toEqual([]);
    const [inv] = await db.select().from(invoices).where(eq(invoices.id, dropped!.invoice.id));
    expect(inv!.status).toBe('PENDING');
    expect(depositOnChain(rail, dropped!.deposit).transfers).toEqual([]);
    expect(await db.select().from(settlements).where(eq(settlements.invoiceId, dropped!.invoice.id))).toHaveLength(1);

    for (const [i, p] of [
      [0, kept1!],
      [2, kept2!],
    ] as const) {
      const all = await db.select().from(settlements).where(eq(settlements.invoiceId, p.invoice.id));
      expect(
        all.map((s) => [s.id, s.status]),
        all[0]?.lastError ?? '',
      ).toEqual([[ids[i], 'completed']]);
      const credits = await db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, ids[i]!));
      expect(credits.map((e) => e.kind)).toEqual(['invoice_credit']);
      expect(new Decimal(credits[0]!.amount).eq(all[0]!.netAmount)).toBe(true);
      const [invoice] = await db.select().from(invoices).where(eq(invoices.id, p.invoice.id));
      expect(invoice!.status).toBe('PAID_OUT');
      expect(depositOnChain(rail, p.deposit).transfers).toEqual([[rail.node.keys.hot.hex, p.units]]);
      expect((await db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, ids[i]!))).filter((r) => r.step === 'custody')).toHaveLength(
        1,
      );
    }
    // Money: the payer lost the two kept payments once, the hot wallet received them once; the energy came back.
    expect(await usdt(payer().hex)).toBe(before.payer - kept1!.units - kept2!.units);
    expect(await usdt(rail.node.keys.hot.hex)).toBe(before.hot + kept1!.units + kept2!.units);
    for (const p of paid) expect((await readTronStake(rail.client, p.deposit)).acquiredEnergySun).toBe(0n);
  }, 240_000);
});
