import { and, asc, eq } from 'drizzle-orm';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPulls, emails, gasSpend, invoices, ledgerEntries, subscriptionPeriods } from '@/db/schema';
import collector from '@/lib/chain/evm/collector/collector.json' with { type: 'json' };
import { setNetworkOverride, type TronNetwork } from '@/lib/chain/network';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import type { Db } from '@/lib/db';
import { watchTron } from '@/lib/payments/watch-tron';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { createPlan } from '../create-plan';
import { createSubscription } from '../create-subscription';
import { runBilling } from '../run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from '../schemas';
import { decodeFunctionData, erc20Abi, getAddress } from 'viem';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { toBase58, toEvm } from '@/lib/chain/tron/address';
import { checkoutCollectionOffer } from './collection-offer';
import { permissionIdOf } from './collector-network';
import { runCollection, type CollectionOptions } from './run-collection';
import { setUpCollection } from './set-up-collection';

/*
 * Issue 48 §2 on TRON: the collector deployed on the stand-in by the energy wallet (consume_user_resource_percent
 * 100, the energy wallet its operator and admin), a payer's TRC-20 approve and authorize signed by TronWeb, and the
 * collection job pulling each period into its invoice's deposit address, seen by the TRON watcher; PostgreSQL real.
 * The on-chain period is 60 s (20 stand-in blocks): the chain clock moves 3 s a block and cannot jump a day.
 */
const DAY_MS = 86_400_000;
const USDT = 1_000_000n;
let rail: TronRail;
let net: TronNetwork & { rpcUrl: string; tokenAddress: string; collectorAddress: string };
let db: Db;
let t: Awaited<ReturnType<typeof createTestTenant>>;
const measured: Record<string, unknown>[] = [];

beforeAll(async () => {
  rail = await startTronRail();
  const gas = rail.node.keys.gas;
  const tw = rail.node.tronWeb(gas.privateKey);
  // The energy wallet's stake: pulls use its own energy (the collector charges the caller all of it).
  const stake = await tw.transactionBuilder.freezeBalanceV2(400_000 * 1_000_000, 'ENERGY', gas.address);
  expect((await tw.trx.sendRawTransaction(await tw.trx.sign(stake))).result).toBe(true);
  const tx = await tw.transactionBuilder.createSmartContract(
    {
      abi: collector.abi as never,
      bytecode: collector.bytecode.replace(/^0x/, ''),
      feeLimit: 1_000_000_000,
      userFeePercentage: 100,
      originEnergyLimit: 10_000_000,
      parameters: [gas.address, gas.address],
      name: 'SubscriptionCollector',
    },
    gas.address,
  );
  expect((await tw.trx.sendRawTransaction(await tw.trx.sign(tx))).result).toBe(true);
  const collectorAddress = toBase58((tx as unknown as { contract_address: string }).contract_address);
  net = { ...rail.net, collectorAddress, collectorAdminKey: rail.net.gasWalletKey } as typeof net;
  setNetworkOverride('test', net);
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  db = t.db;
  await watch(); // the watcher's cursor starts below the head
}, 120_000);
afterAll(async () => {
  if (measured.length) console.log(`[tron collection] ${JSON.stringify(measured)}`);
  await rail?.stop();
});

const watch = () => watchTron(db, net as never, { baseBackoffMs: 1, maxRetries: 1 });
const owner = () => ({ tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } });
const collect = (now: Date, opts: CollectionOptions = {}) => runCollection(db, { now, tenantId: t.tenant.id, ...opts });
const usdtOf = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);
const pullOf = async (invoiceId: string) => (await db.select().from(collectionPulls).where(eq(collectionPulls.invoiceId, invoiceId)))[0];
const invoiceOf = async (id: string) => (await db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const invoiceEmail = async (invoiceId: string) =>
  (
    await db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId)))
  )[0]!;

/** Signs and sends a contract call as `who` (TronWeb, as the payer's wallet would); the stand-in mines it at once. */
async function send(who: { privateKey: string; address: string }, contract: string, fn: string, params: { type: string; value: unknown }[]) {
  const tw = rail.node.tronWeb(who.privateKey);
  const { transaction } = await tw.transactionBuilder.triggerSmartContract(contract, fn, { feeLimit: 200_000_000 }, params, who.address);
  expect((await tw.trx.sendRawTransaction(await tw.trx.sign(transaction))).result).toBe(true);
}
const approve = (who: { privateKey: string; address: string }, units: bigint) =>
  send(who, rail.node.usdt, 'approve(address,uint256)', [
    { type: 'address', value: net.collectorAddress },
    { type: 'uint256', value: units.toString() },
  ]);

/** A daily 10.00 USDT subscription on TRON whose payer (100 USDT) approved the collector and authorized 10 per 60 s. */
async function subscribedWithCollection() {
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  db = t.db;
  const t0 = new Date(Date.now() + 60_000);
  const plan = await createPlan(db, owner(), CreatePlanBody.parse({ name: 'Daily', amount: '10.00', interval: 'day', trialDays: 1, graceDays: 2 }));
  const sub = await createSubscription(
    db,
    owner(),
    CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'pat@example.com', chain: 'TRON' }),
    { now: t0 },
  );
  const a = utils.accounts.generateAccount();
  const payer = { privateKey: a.privateKey, address: a.address.base58 };
  await rail.node.sendTrx(payer.address, 1_000_000_000);
  await rail.node.mintUsdt(payer.address, 100n * USDT);
  const before = await call('GET', `/v1/subscriptions/${sub.id}/collection`, { key: t.test });
  expect(before.status, before.text).toBe(200);
  await approve(payer, 2n ** 256n - 1n);
  const head = (await rail.client.wallet<{ block_header: { raw_data: { timestamp: number } } }>('getnowblock')).block_header.raw_data.timestamp;
  const auth = before.body.authorize;
  await send(payer, before.body.collectorAddress, 'authorize(bytes32,address,uint256,uint256,uint256)', [
    { type: 'bytes32', value: auth.subscriptionId },
    { type: 'address', value: auth.token },
    { type: 'uint256', value: auth.maxPerPeriod },
    { type: 'uint256', value: 60 },
    { type: 'uint256', value: Math.floor(head / 1000) - 1 },
  ]);
  await setUpCollection(db, sub.id, { payer: payer.address });
  const anchor = new Date(sub.currentPeriodEnd);
  const period = (n: number) => new Date(anchor.getTime() + n * DAY_MS + 60_000);
  return { sub, payer, period, before: before.body };
}

/** The period's invoice billed at `now`, after a new on-chain period began (20 blocks: 60 s). */
async function bill(subId: string, n: number, now: Date) {
  await rail.node.mine(20);
  await runBilling(db, { now, tenantId: t.tenant.id });
  const rows = await db
    .select()
    .from(subscriptionPeriods)
    .where(eq(subscriptionPeriods.subscriptionId, subId))
    .orderBy(asc(subscriptionPeriods.periodStart));
  return rows[n]!;
}

/** A recorded pull followed to its end: in a block, then solidified (19 blocks) and judged. */
async function pullThrough(now: Date, opts: CollectionOptions = {}) {
  expect(await collect(now, opts)).toMatchObject({ in_flight: 1, failed: 0 });
  await rail.node.mine(19);
  return collect(now, opts);
}

describe('automatic collection on TRON (stand-in)', () => {
  it('three periods each pulled once into the invoice address and seen by the watcher; allowance zero: e-mailed (approval revoked)', async () => {
    const { sub, payer, period, before } = await subscribedWithCollection();
    expect(before).toMatchObject({
      state: 'not_set_up',
      chain: 'TRON',
      tokenAddress: rail.node.usdt,
      collectorAddress: net.collectorAddress,
      approve: { spender: net.collectorAddress, amountPerPeriod: '10000000' },
      authorize: { subscriptionId: permissionIdOf(sub.id), token: rail.node.usdt, maxPerPeriod: '10000000' },
    });
    const authorized = await call('GET', `/v1/subscriptions/${sub.id}/collection`, { key: t.test });
    expect(authorized.body).toMatchObject({ state: 'authorized', payer: payer.address, allowance: expect.any(String), balance: '100' });
    for (const n of [0, 1, 2]) {
      const p = await bill(sub.id, n, period(n));
      expect((await invoiceEmail(p.invoiceId)).status).toBe('held');
      const inv = await invoiceOf(p.invoiceId);
      expect(await pullThrough(period(n))).toMatchObject({ pulled: 1, fell_back: 0, failed: 0 });
      expect(await collect(period(n))).toMatchObject({ pulled: 0, in_flight: 0, fell_back: 0, failed: 0 });
      const pull = (await pullOf(p.invoiceId))!;
      expect(pull).toMatchObject({ status: 'confirmed', depositAddress: inv.depositAddress, replacedTxHashes: null });
      expect(await usdtOf(inv.depositAddress)).toBe(10n * USDT);
      await watch();
      expect(await invoiceOf(p.invoiceId)).toMatchObject({ status: 'CONFIRMED' });
      expect((await invoiceEmail(p.invoiceId)).status).toBe('dropped');
      const spent = await db.select().from(gasSpend).where(eq(gasSpend.referenceId, pull.id));
      measured.push({
        period: n,
        ...Object.fromEntries(spent.map((s) => [s.kind, { energy: s.gasUsed, burnedSun: s.costWei }])),
        networkFee: pull.networkFee,
      });
      expect(spent.map((s) => s.kind).sort()).toEqual(['collector_allow', 'subscription_pull']);
    }
    expect(await usdtOf(payer.address)).toBe(70n * USDT);
    const collected = await call('GET', `/v1/subscriptions/${sub.id}/collection`, { key: t.test });
    // Solidifying the last pull took 19+ blocks: its 60-s on-chain period is over, the next one is open.
    expect(collected.body).toMatchObject({ state: 'authorized', payer: payer.address, balance: '70' });
    expect(collected.body.attempts).toHaveLength(3);

    await approve(payer, 0n);
    const p3 = await bill(sub.id, 3, period(3));
    expect(await collect(period(3))).toMatchObject({ pulled: 0, fell_back: 1, failed: 0 });
    expect(await pullOf(p3.invoiceId)).toMatchObject({ status: 'skipped', reason: 'approval revoked' });
    expect((await invoiceEmail(p3.invoiceId)).status).toBe('pending');
    expect(await usdtOf(payer.address)).toBe(70n * USDT);
  });

  it('a crash between record and broadcast: the next run broadcasts the recorded bytes, one pull', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const crash = {
      hooks: {
        beforeBroadcast: () => {
          throw new Error('crash after record');
        },
      },
    };
    expect(await collect(period(0), crash)).toMatchObject({ failed: 1, pulled: 0 });
    const recorded = (await pullOf(p0.invoiceId))!;
    expect(recorded).toMatchObject({ status: 'signed', nonce: null });
    expect(recorded.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await usdtOf(payer.address)).toBe(100n * USDT);
    expect(await pullThrough(period(0))).toMatchObject({ pulled: 1 });
    const done = (await pullOf(p0.invoiceId))!;
    expect(done.txHash).toBe(recorded.txHash);
    expect(done.rawTx).toBe(recorded.rawTx);
    expect(await usdtOf(payer.address)).toBe(90n * USDT);
    expect(await collect(period(0))).toMatchObject({ pulled: 0, in_flight: 0 });
    expect(await usdtOf(payer.address)).toBe(90n * USDT);
  });

  it('a pull reverted on chain (allowance withdrawn after the record) is e-mailed and not charged', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const race = { hooks: { beforeBroadcast: () => approve(payer, 0n) } };
    expect(await pullThrough(period(0), race)).toMatchObject({ pulled: 0, fell_back: 1 });
    const pull = (await pullOf(p0.invoiceId))!;
    expect(pull).toMatchObject({ status: 'failed', reason: 'reverted', networkFee: null });
    expect((await invoiceEmail(p0.invoiceId)).status).toBe('pending');
    expect(await usdtOf(payer.address)).toBe(100n * USDT);
    const spent = await db
      .select()
      .from(gasSpend)
      .where(and(eq(gasSpend.referenceId, pull.id), eq(gasSpend.kind, 'subscription_pull')));
    expect(spent).toHaveLength(1);
    measured.push({ reverted: { energy: spent[0]!.gasUsed, burnedSun: spent[0]!.costWei } });
    const fees = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'pull_network_fee')));
    expect(fees).toHaveLength(0);
  });
  it('never packed: the same bytes re-broadcast until the solidified chain proves them expired, only then signed again; one pull', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const inv = await invoiceOf(p0.invoiceId);
    // Allowed beforehand (an offline admin's batch): the pull is the only transaction of the period.
    await send(rail.node.keys.gas, net.collectorAddress, 'setDepositAllowed(address,bool)', [
      { type: 'address', value: toBase58(inv.depositAddress) },
      { type: 'bool', value: true },
    ]);
    rail.node.setPacking(false);
    let first: Awaited<ReturnType<typeof pullOf>>;
    try {
      expect(await collect(period(0))).toMatchObject({ in_flight: 1, failed: 0 });
      first = (await pullOf(p0.invoiceId))!;
      expect(first!.allowTxHash).toBeNull();
      expect(await collect(period(0))).toMatchObject({ in_flight: 1, failed: 0 }); // pooled: already known
      // Past its 5-minute lifetime at the head (101 blocks), not yet under the solidified block: refused as expired, no verdict.
      await rail.node.mine(105);
      expect(await collect(period(0))).toMatchObject({ in_flight: 1, failed: 0 });
      expect((await pullOf(p0.invoiceId))!.txHash).toBe(first!.txHash);
      await rail.node.mine(20);
    } finally {
      rail.node.setPacking(true);
    }
    // The solidified chain is past the expiration and none of its blocks holds it: signed again, the old txID kept.
    expect(await pullThrough(period(0))).toMatchObject({ pulled: 1 });
    const done = (await pullOf(p0.invoiceId))!;
    expect(done.txHash).not.toBe(first!.txHash);
    expect(done.replacedTxHashes).toEqual([first!.txHash]);
    expect(await usdtOf(payer.address)).toBe(90n * USDT);
    expect(await usdtOf(inv.depositAddress)).toBe(10n * USDT);
  });
  it('three workers on the same period at once: one recorded pull, one transfer', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const runs = await Promise.all([collect(period(0)), collect(period(0)), collect(period(0))]);
    expect(runs.reduce((n, r) => n + r.failed + r.fell_back + r.pulled, 0)).toBe(0);
    await rail.node.mine(19);
    expect(await collect(period(0))).toMatchObject({ pulled: 1, failed: 0 });
    const rows = await db.select().from(collectionPulls).where(eq(collectionPulls.subscriptionId, sub.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'confirmed', replacedTxHashes: null });
    expect(await usdtOf(payer.address)).toBe(90n * USDT);
    expect(await usdtOf((await invoiceOf(p0.invoiceId)).depositAddress)).toBe(10n * USDT);
  });

  it("the checkout's offer on TRON is what TronLink signs (T… addresses); the payer signs it with TronWeb and POST …/collection turns it on", async () => {
    t = await createTestTenant({ invoiceFeeRate: '0.01' });
    db = t.db;
    const plan = await createPlan(db, owner(), CreatePlanBody.parse({ name: 'Monthly', amount: '10.00', interval: 'month' }));
    const sub = await createSubscription(
      db,
      owner(),
      CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'pat@example.com', chain: 'TRON' }),
    );
    const offer = (await checkoutCollectionOffer(db, sub.latestInvoiceId!))!;
    expect(offer).toMatchObject({
      supported: true,
      family: 'tron',
      amount: '10.00',
      rail: 'USDT (TRC-20) on TRON',
      periodDays: 28,
      on: null,
      approveUri: null, // TronLink has no approve link: the page shows the call
      approveUnits: String(120n * USDT),
      approveTotal: '120.00',
      signing: {
        tokenAddress: rail.node.usdt,
        collectorAddress: net.collectorAddress,
        approve: { spender: net.collectorAddress, amountPerPeriod: String(10n * USDT) },
        authorize: { subscriptionId: permissionIdOf(sub.id), token: rail.node.usdt, maxPerPeriod: String(10n * USDT), periodSeconds: 28 * 86_400 },
      },
    });
    if (!offer.supported) throw new Error('unreachable');
    // The calldata a TronLink TriggerSmartContract carries: the ABI's, addresses as their 20 account bytes.
    expect(decodeFunctionData({ abi: erc20Abi, data: offer.approveData }).args).toEqual([getAddress(toEvm(net.collectorAddress)), 120n * USDT]);
    const s = offer.signing;
    const a = s.authorize;
    expect(decodeFunctionData({ abi: COLLECTOR_ABI, data: offer.authorizeData }).args).toEqual([
      a.subscriptionId,
      getAddress(toEvm(rail.node.usdt)),
      10n * USDT,
      BigInt(a.periodSeconds),
      BigInt(a.start),
    ]);
    const acc = utils.accounts.generateAccount();
    const payer = { privateKey: acc.privateKey, address: acc.address.base58 };
    expect(new RegExp(`^${offer.payerInput.pattern}$`).test(payer.address)).toBe(true);
    await rail.node.sendTrx(payer.address, 1_000_000_000);
    await rail.node.mintUsdt(payer.address, 100n * USDT);
    // What the page shows, signed as TronLink would: approve(collector, cap × 12), then authorize(…).
    await send(payer, s.tokenAddress, 'approve(address,uint256)', [
      { type: 'address', value: s.approve.spender },
      { type: 'uint256', value: offer.approveUnits },
    ]);
    await send(payer, s.collectorAddress, 'authorize(bytes32,address,uint256,uint256,uint256)', [
      { type: 'bytes32', value: a.subscriptionId },
      { type: 'address', value: a.token },
      { type: 'uint256', value: a.maxPerPeriod },
      { type: 'uint256', value: a.periodSeconds },
      { type: 'uint256', value: a.start },
    ]);
    const post = (p: string) => call('POST', `/v1/subscriptions/${sub.id}/collection`, { key: t.test, body: { payer: p } });
    expect((await post(toEvm(payer.address))).body.code).toBe('invalid_address'); // an EVM address on a TRON rail
    const on = await post(payer.address);
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ state: 'authorized', payer: payer.address, allowance: '120', balance: '100' });
    expect((await checkoutCollectionOffer(db, sub.latestInvoiceId!))!.on).toEqual({ payer: payer.address });
  });
});
