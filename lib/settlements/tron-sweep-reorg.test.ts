import { and, eq } from 'drizzle-orm';
import type { TronNetwork } from '@/lib/chain/network';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, events, invoices, ledgerEntries, settlements, settlementTxs, type SettlementStep } from '@/db/schema';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { watchTron } from '@/lib/payments/watch-tron';
import { createSettlements } from './create-settlements';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';

/*
 * Issue 44's money rule on TRON: a sweep starts once its payment is in a block (not solidified) and is credited
 * only once its custody transfer is solidified. A reorg that takes the payment away after the sweep began must
 * leave it uncredited, with no money lost or counted twice; one that puts it back in another block credits once.
 * The stand-in replaces blocks on request (startTronNode's `reorgs`, StandInChain.reorg).
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
const head = () => rail.node.chain.head.number;

async function pay(depositT: string, units: bigint): Promise<string> {
  const c = await rail.node.tronWeb(payer().privateKey).contract().at(rail.node.usdt);
  return String(await c.transfer(depositT, units.toString()).send());
}

/**
 * A TRON invoice paid by a TronWeb transfer, seen by the watcher (DETECTED, not solidified), its early settlement
 * made by the fan-out, and its sweep run up to a custody transfer that is in a block but not solidified (the attempt
 * stops there, as a worker would between two looks). Returns what the reorg needs.
 */
async function sweepBegun() {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  await watch(t.db);
  const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '25', chain: 'TRON', token: 'USDT' } });
  expect(res.status, res.text).toBe(201);
  const invoice = res.body as { id: string; depositAddress: string };
  const hot = rail.node.keys.hot.hex;
  const before = { payer: await usdt(payer().hex), hot: await usdt(hot) };
  const paymentTx = await pay(invoice.depositAddress, 25_000_000n);
  const paymentBlock = rail.node.chain.txs.get(paymentTx)!.blockNumber;
  await rail.node.mine(1);
  await watch(t.db);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.id));
  expect(inv!.status).toBe('DETECTED');
  // In a block with one on top, far from solidified: the fan-out starts the sweep and leaves the invoice as it is.
  await createSettlements(t.db, net);
  const [s] = await t.db.select().from(settlements).where(eq(settlements.invoiceId, invoice.id));
  expect(s).toMatchObject({ sweptEarly: true, kind: 'invoice' });
  expect(new Decimal(s!.amount).eq(25)).toBe(true);
  expect((await t.db.select().from(invoices).where(eq(invoices.id, invoice.id)))[0]!.status).toBe('DETECTED');

  let custodySent = false;
  const stopAtCustody: SettleHooks = {
    beforeBroadcast: (step: SettlementStep) => {
      if (step === 'custody') custodySent = true;
    },
    onWait: async () => {
      if (custodySent) throw new Error('worker stopped while the custody transfer waits for solidification');
      await rail.node.mine(1);
    },
  };
  await expect(settleInvoice(t.db, net, s!.id, stopAtCustody)).rejects.toThrow(/worker stopped/);
  const custody = (await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, s!.id))).find((r) => r.step === 'custody')!;
  const custodyBlock = rail.node.chain.txs.get(custody.txHash)!.blockNumber;
  expect(custodyBlock).toBeGreaterThan(rail.node.chain.solid.number);
  expect(paymentBlock).toBeGreaterThan(rail.node.chain.solid.number);
  return { ...t, invoice, settlementId: s!.id, paymentTx, paymentBlock, before, hot };
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

const credits = (db: Db, tenantId: string) => db.select().from(ledgerEntries).where(eq(ledgerEntries.tenantId, tenantId));
const eventsOf = async (db: Db, invoiceId: string) => (await db.select().from(events).where(eq(events.subjectId, invoiceId))).map((e) => e.type);

describe('TRON early sweep and reorgs (issue 44)', () => {
  it('a payment a reorg drops after its sweep began is never credited; nothing moved, the energy comes back', async () => {
    const t = await sweepBegun();
    // Replace every block from the payment's up, in a new branch without the payment (a double spend).
    const depth = head() - t.paymentBlock + 1;
    const { dropped, readded } = await rail.node.reorg(depth, { drop: [t.paymentTx] });
    // The new branch grows past the old head before the watcher looks again.
    await rail.node.mine(depth + 1);
    expect(dropped).toEqual([t.paymentTx]);
    expect(readded.length).toBeGreaterThan(0);
    await runJobs(t.db, 30);

    const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(s!.status).toBe('failed');
    expect(s!.lastError).toMatch(/left the chain/);
    expect(await credits(t.db, t.tenant.id)).toEqual([]);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoice.id));
    expect(inv!.status).toBe('PENDING');
    expect([inv!.amountReceived, inv!.amountCredited].map((v) => new Decimal(v).toFixed())).toEqual(['0', '0']);
    expect(await eventsOf(t.db, t.invoice.id)).not.toContain('invoice.paid_out');
    // No settlement was made again for a payment that is not there.
    expect(await t.db.select().from(settlements).where(eq(settlements.invoiceId, t.invoice.id))).toHaveLength(1);
    // Money: the payer still holds the 25 USDT, the deposit and the hot wallet received none.
    expect(await usdt(payer().hex)).toBe(t.before.payer);
    expect(await usdt(t.hot)).toBe(t.before.hot);
    // The delegated energy came back to the energy wallet.
    expect((await readTronStake(rail.client, (await depositOf(t.db, t.invoice.id)) ?? '')).acquiredEnergySun).toBe(0n);
  }, 240_000);

  it('a payment whose block is replaced by one holding it again is credited once, with its statuses in order', async () => {
    const t = await sweepBegun();
    const depth = head() - t.paymentBlock + 1;
    await rail.node.reorg(depth);
    await rail.node.mine(depth + 1);
    await runJobs(t.db, 30);

    const [s] = await t.db.select().from(settlements).where(eq(settlements.invoiceId, t.invoice.id));
    expect(s!.status).toBe('completed');
    expect(await t.db.select().from(settlements).where(eq(settlements.invoiceId, t.invoice.id))).toHaveLength(1);
    const entries = await credits(t.db, t.tenant.id);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([['invoice_credit', s!.netAmount]]);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoice.id));
    expect(inv!.status).toBe('PAID_OUT');
    expect(new Decimal(inv!.amountReceived).eq(25)).toBe(true);
    expect(new Decimal(inv!.amountCredited).eq(s!.netAmount)).toBe(true);
    const seen = (await eventsOf(t.db, t.invoice.id)).filter((e) => e !== 'invoice.created');
    expect(seen.filter((e) => e === 'invoice.paid_out')).toHaveLength(1);
    expect(seen.indexOf('invoice.confirmed')).toBeLessThan(seen.indexOf('invoice.paid_out'));
    // The transfer recorded from the new branch is the one the settlement swept.
    const transfers = await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, t.invoice.id));
    expect(transfers.map((r) => [r.txHash, r.settlementId])).toEqual([[t.paymentTx, s!.id]]);
    // Money: 25 USDT left the payer once and reached the hot wallet once.
    expect(await usdt(payer().hex)).toBe(t.before.payer - 25_000_000n);
    expect(await usdt(t.hot)).toBe(t.before.hot + 25_000_000n);
    const custody = await t.db
      .select()
      .from(settlementTxs)
      .where(and(eq(settlementTxs.settlementId, s!.id), eq(settlementTxs.step, 'custody')));
    expect(custody).toHaveLength(1);
  }, 240_000);
});

async function depositOf(db: Db, invoiceId: string) {
  const [inv] = await db.select({ a: invoices.depositAddress }).from(invoices).where(eq(invoices.id, invoiceId));
  return inv?.a;
}
