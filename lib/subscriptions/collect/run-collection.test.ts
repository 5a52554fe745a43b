import { and, asc, eq } from 'drizzle-orm';
import { erc20Abi, http, createWalletClient, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPulls, emails, events, gasSpend, invoices, subscriptionCollections, subscriptionPeriods } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { EvmNetwork } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startRpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { withTestChain } from '@/lib/testing/test-chain';
import { createPlan } from '../create-plan';
import { createSubscription } from '../create-subscription';
import { runBilling } from '../run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from '../schemas';
import { permissionIdOf } from './collector-network';
import { runCollection, type CollectionOptions } from './run-collection';
import { setUpCollection } from './set-up-collection';

/*
 * Issue 48 §2 on anvil and PostgreSQL: each period of a daily plan, moved by a test clock (the billing job's `now`
 * and the chain's next block timestamp together, never slept), is pulled once from the payer's wallet into its
 * invoice's own deposit address and paid through the usual watcher and settlement; a revoked approval, a crash around
 * the broadcast and a failed read each do what docs/subscriptions.md says.
 */
const DAY_MS = 86_400_000;
let chain: AnvilChain;
let net: EvmNetwork;
let db: Db;
let t: Awaited<ReturnType<typeof createTestTenant>>;
const gas: Record<string, number> = {};

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

beforeAll(async () => {
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  db = t.db;
  await jobs(); // the watcher's cursor starts below the head
});

const jobs = () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
const owner = () => ({ tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } });
const units = (s: string) => parseUnits(s, 18);
const collect = (now: Date, opts: CollectionOptions = {}) => runCollection(db, { now, tenantId: t.tenant.id, ...opts });

/** The chain's clock set to `at` (its next block), so the collector's periods follow the billing job's. */
async function clockTo(at: Date) {
  await chain.client.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000)) });
  await chain.mine(1);
}
const chainNow = async () => new Date(Number((await chain.client.getBlock()).timestamp) * 1000);

async function send(key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const wallet = createWalletClient({ chain: chain.client.chain, account: privateKeyToAccount(key), transport: http(chain.rpcUrl), cacheTime: 0 });
  const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 300_000n });
  return chain.client.waitForTransactionReceipt({ hash });
}

/** A daily 10.00 subscription with a one-day trial, whose payer (1,000 USDT) approved the collector and authorized 10 a day from the trial's end. */
async function subscribedWithCollection() {
  // A tenant per test: the jobs below run for one tenant, so another test's subscriptions stay out of the counts.
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  const t0 = new Date((await chainNow()).getTime() + 60_000);
  const plan = await createPlan(db, owner(), CreatePlanBody.parse({ name: 'Daily', amount: '10.00', interval: 'day', trialDays: 1, graceDays: 2 }));
  const sub = await createSubscription(db, owner(), CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'pat@example.com' }), { now: t0 });
  const anchor = new Date(sub.currentPeriodEnd);
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  await chain.client.setBalance({ address: payer, value: units('1') });
  await chain.mint(payer, '1000');
  await send(key, chain.token, erc20Abi, 'approve', [chain.collector, 2n ** 256n - 1n]);
  await send(key, chain.collector, COLLECTOR_ABI, 'authorize', [
    permissionIdOf(sub.id),
    chain.token,
    units('10'),
    86_400n,
    BigInt(anchor.getTime() / 1000),
  ]);
  await setUpCollection(db, sub.id, { payer });
  /** Period n's clock: a minute into it. */
  const period = (n: number) => new Date(anchor.getTime() + n * DAY_MS + 60_000);
  return { sub, key, payer, period };
}

async function periodRow(subId: string, n: number) {
  const rows = await db
    .select()
    .from(subscriptionPeriods)
    .where(eq(subscriptionPeriods.subscriptionId, subId))
    .orderBy(asc(subscriptionPeriods.periodStart));
  return rows[n]!;
}
const pullOf = async (invoiceId: string) => (await db.select().from(collectionPulls).where(eq(collectionPulls.invoiceId, invoiceId)))[0];
const invoiceEmail = async (invoiceId: string) =>
  (
    await db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId)))
  )[0]!;
const invoiceOf = async (id: string) => (await db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const failedEvents = async (subId: string) =>
  (
    await db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, subId), eq(events.type, 'subscription.payment_failed')))
  ).length;

/** The period's invoice billed at `now` (its e-mail held while collection is tried); returns the period row. */
async function bill(subId: string, n: number, now: Date) {
  await clockTo(now);
  await runBilling(db, { now, tenantId: t.tenant.id });
  return periodRow(subId, n);
}

/** The watcher sees the pulled payment, five more blocks confirm it, settlement pays it out. */
async function settle(invoiceId: string) {
  await jobs();
  expect((await invoiceOf(invoiceId)).status).toBe('DETECTED');
  await chain.mine(5);
  await jobs();
  return invoiceOf(invoiceId);
}

describe('automatic collection on anvil', () => {
  it('three periods on a test clock: each pulled once into its invoice address and paid out; revoked: e-mailed instead', async () => {
    const { sub, key, payer, period } = await subscribedWithCollection();
    for (const n of [0, 1, 2]) {
      const p = await bill(sub.id, n, period(n));
      expect((await invoiceEmail(p.invoiceId)).status).toBe('held');
      const inv = await invoiceOf(p.invoiceId);
      expect(await collect(period(n))).toMatchObject({ pulled: 1, fell_back: 0, failed: 0 });
      expect(await collect(period(n))).toMatchObject({ pulled: 0, fell_back: 0, failed: 0 }); // a re-run: nothing more
      const pull = (await pullOf(p.invoiceId))!;
      expect(pull).toMatchObject({ status: 'confirmed', depositAddress: inv.depositAddress.toLowerCase() });
      expect(pull.allowTxHash).toBeTruthy(); // the admin allowed this period's deposit address first
      expect((await invoiceEmail(p.invoiceId)).status).toBe('dropped');
      expect(await chain.tokenBalance(payer)).toBe(units(String(1000 - 10 * (n + 1))));
      expect((await settle(p.invoiceId)).status).toBe('PAID_OUT');
      gas[`pull${n}`] = Number(pull.gasUsed);
    }
    const allows = await db.select().from(gasSpend).where(eq(gasSpend.kind, 'collector_allow'));
    gas.allow = Number(allows.at(-1)!.gasUsed);
    expect(await failedEvents(sub.id)).toBe(0);

    // The payer sets the allowance to zero: the next period is e-mailed, the attempt recorded, collection off.
    await send(key, chain.token, erc20Abi, 'approve', [chain.collector, 0n]);
    const p3 = await bill(sub.id, 3, period(3));
    expect(await collect(period(3))).toMatchObject({ pulled: 0, fell_back: 1, failed: 0 });
    expect(await pullOf(p3.invoiceId)).toMatchObject({ status: 'skipped', reason: 'approval revoked', txHash: null });
    expect((await invoiceEmail(p3.invoiceId)).status).toBe('pending');
    expect(await failedEvents(sub.id)).toBe(1);
    expect((await db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id)))[0]).toMatchObject({
      status: 'canceled',
      cancelReason: 'approval revoked',
    });
    expect(await collect(period(3))).toMatchObject({ pulled: 0, fell_back: 0 });
    // The customer pays the e-mailed invoice from the same wallet, by hand.
    await send(key, chain.token, erc20Abi, 'transfer', [(await invoiceOf(p3.invoiceId)).depositAddress, units('10')]);
    expect((await settle(p3.invoiceId)).status).toBe('PAID_OUT');
    // The subscription goes on, by e-mailed invoice: the next period's e-mail is not held, nothing is tried.
    const p4 = await bill(sub.id, 4, period(4));
    expect((await invoiceEmail(p4.invoiceId)).status).toBe('pending');
    expect(await collect(period(4))).toMatchObject({ pulled: 0, fell_back: 0 });
    expect(await pullOf(p4.invoiceId)).toBeUndefined();
    expect(await chain.tokenBalance(payer)).toBe(units('960'));
  });

  it('a crash after the record or after the broadcast, and re-runs, still pull once; the contract refuses a second pull itself', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const crash = () => {
      throw new Error('worker killed');
    };
    // Recorded, never broadcast: the next run sends the same signed bytes.
    const p0 = await bill(sub.id, 0, period(0));
    expect(await collect(period(0), { hooks: { beforeBroadcast: crash } })).toMatchObject({ failed: 1, pulled: 0 });
    const recorded = (await pullOf(p0.invoiceId))!;
    expect(recorded).toMatchObject({ status: 'signed', lastError: 'worker killed' });
    expect(await chain.tokenBalance(payer)).toBe(units('1000'));
    expect((await invoiceEmail(p0.invoiceId)).status).toBe('held');
    expect(await collect(period(0))).toMatchObject({ pulled: 1 });
    expect(await pullOf(p0.invoiceId)).toMatchObject({ status: 'confirmed', txHash: recorded.txHash, nonce: recorded.nonce });
    expect(await collect(period(0))).toMatchObject({ pulled: 0, fell_back: 0 });
    expect(await chain.tokenBalance(payer)).toBe(units('990'));
    expect((await settle(p0.invoiceId)).status).toBe('PAID_OUT');

    // Broadcast and mined, the receipt never read: the next run finds it, nothing is sent again.
    const p1 = await bill(sub.id, 1, period(1));
    expect(await collect(period(1), { hooks: { afterBroadcast: crash } })).toMatchObject({ failed: 1, pulled: 0 });
    expect(await chain.tokenBalance(payer)).toBe(units('980'));
    expect(await pullOf(p1.invoiceId)).toMatchObject({ status: 'signed' });
    expect(await collect(period(1))).toMatchObject({ pulled: 1 });
    expect(await chain.tokenBalance(payer)).toBe(units('980'));
    expect((await settle(p1.invoiceId)).status).toBe('PAID_OUT');

    // The contract's layer: the operator pulling the same period again is refused on chain (the period's cap is used)...
    const inv1 = await invoiceOf(p1.invoiceId);
    await expect(
      chain.client.simulateContract({
        address: chain.collector,
        abi: COLLECTOR_ABI,
        functionName: 'collect',
        args: [permissionIdOf(sub.id), payer, units('10'), inv1.depositAddress],
        account: privateKeyToAccount(chain.keys.gas),
      }),
    ).rejects.toThrow(/OverCap/);
    // ...and a job that lost its record of the pull reads "nothing available" and e-mails instead of pulling twice.
    await db.delete(collectionPulls).where(eq(collectionPulls.invoiceId, p1.invoiceId));
    await db.update(invoices).set({ status: 'PENDING' }).where(eq(invoices.id, p1.invoiceId));
    expect(await collect(period(1))).toMatchObject({ pulled: 0, fell_back: 1 });
    expect(await pullOf(p1.invoiceId)).toMatchObject({ status: 'skipped', reason: 'period cap used' });
    expect(await chain.tokenBalance(payer)).toBe(units('980'));
  });

  it('a failed read is retried, never taken for "insufficient": no e-mail, no attempt recorded; insufficient balance is e-mailed', async () => {
    const { sub, key, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const down = { ...net, rpcUrl: 'http://127.0.0.1:9' };
    expect(await collect(period(0), { railLookup: () => down })).toMatchObject({ failed: 1, pulled: 0, fell_back: 0 });
    expect(await pullOf(p0.invoiceId)).toBeUndefined();
    expect((await invoiceEmail(p0.invoiceId)).status).toBe('held');
    expect(await failedEvents(sub.id)).toBe(0);
    expect(await collect(period(0))).toMatchObject({ pulled: 1 });
    expect(await chain.tokenBalance(payer)).toBe(units('990'));
    expect((await settle(p0.invoiceId)).status).toBe('PAID_OUT');

    // The payer's wallet holds less than the period's amount: e-mailed, the attempt recorded, collection stays on.
    await send(key, chain.token, erc20Abi, 'transfer', [chain.addresses.faucet, units('985')]);
    const p1 = await bill(sub.id, 1, period(1));
    expect(await collect(period(1))).toMatchObject({ pulled: 0, fell_back: 1 });
    expect(await pullOf(p1.invoiceId)).toMatchObject({ status: 'skipped', reason: 'insufficient balance' });
    expect((await invoiceEmail(p1.invoiceId)).status).toBe('pending');
    expect(await failedEvents(sub.id)).toBe(1);
    expect((await db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id)))[0]!.status).toBe('active');
  });
});

afterAll(() => {
  if (Object.keys(gas).length) console.log(`[collection gas] ${JSON.stringify(gas)}`);
});

describe('automatic collection under concurrency', () => {
  it('two workers collecting the same period at once: one pull, the other finds it recorded', async () => {
    const { sub, payer, period } = await subscribedWithCollection();
    const p0 = await bill(sub.id, 0, period(0));
    const runs = await Promise.all([collect(period(0)), collect(period(0)), collect(period(0))]);
    expect(runs.reduce((n, r) => n + r.pulled, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.failed + r.fell_back, 0)).toBe(0);
    expect(await pullOf(p0.invoiceId)).toMatchObject({ status: 'confirmed' });
    expect(await chain.tokenBalance(payer)).toBe(units('990'));
  });
});

describe('automatic collection under RPC faults (a proxy in front of anvil)', () => {
  it('the broadcast refused, then every receipt read failing, then a failing eth_call: one pull each period, no fallback on a failed read', async () => {
    const proxy = await startRpcFaultProxy(chain.rpcUrl);
    const through = { railLookup: () => ({ ...net, rpcUrl: proxy.url }) };
    try {
      const { sub, payer, period } = await subscribedWithCollection();
      // The node refuses the broadcast: recorded, nothing on chain; the next run sends the same bytes.
      const p0 = await bill(sub.id, 0, period(0));
      proxy.state.failMethods.add('eth_sendRawTransaction');
      expect(await collect(period(0), through)).toMatchObject({ failed: 1, pulled: 0 });
      expect(await pullOf(p0.invoiceId)).toMatchObject({ status: 'signed' });
      expect(await chain.tokenBalance(payer)).toBe(units('1000'));
      proxy.heal();
      expect(await collect(period(0), through)).toMatchObject({ pulled: 1 });
      expect(await chain.tokenBalance(payer)).toBe(units('990'));
      expect((await settle(p0.invoiceId)).status).toBe('PAID_OUT');

      // Broadcast and mined, but no receipt can be read: retried until one is, never signed or sent anew.
      const p1 = await bill(sub.id, 1, period(1));
      // Receipts fail from the second broadcast on (the admin's allow of the deposit address, then the pull).
      let sends = 0;
      proxy.state.failWhen = (call) =>
        call.method === 'eth_sendRawTransaction' ? (sends++, false) : sends >= 2 && call.method === 'eth_getTransactionReceipt';
      const r1 = await collect(period(1), through);
      expect({ ...r1, sends }).toMatchObject({ failed: 1, pulled: 0, sends: 2 });
      expect(await collect(period(1), through)).toMatchObject({ failed: 1, pulled: 0 });
      expect(await chain.tokenBalance(payer)).toBe(units('980'));
      proxy.heal();
      expect(await collect(period(1), through)).toMatchObject({ pulled: 1 });
      expect(await chain.tokenBalance(payer)).toBe(units('980'));
      expect((await settle(p1.invoiceId)).status).toBe('PAID_OUT');

      // The reads before a pull fail (the node answers errors): no attempt, no e-mail, no payment_failed; then pulled.
      const p2 = await bill(sub.id, 2, period(2));
      proxy.state.errorWhen = (call) => call.method === 'eth_call';
      expect(await collect(period(2), through)).toMatchObject({ failed: 1, pulled: 0, fell_back: 0 });
      expect(await pullOf(p2.invoiceId)).toBeUndefined();
      expect((await invoiceEmail(p2.invoiceId)).status).toBe('held');
      proxy.heal();
      expect(await collect(period(2), through)).toMatchObject({ pulled: 1 });
      expect(await chain.tokenBalance(payer)).toBe(units('970'));
      expect(await failedEvents(sub.id)).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('setting up automatic collection', () => {
  it('keeps only a permission read back from the contract for the rail token, not revoked, with a cap covering the plan', async () => {
    t = await createTestTenant();
    const plan = await createPlan(db, owner(), CreatePlanBody.parse({ name: 'Daily', amount: '10.00', interval: 'day' }));
    const sub = await createSubscription(db, owner(), CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'pat@example.com' }), {
      now: await chainNow(),
    });
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.client.setBalance({ address: payer, value: units('1') });
    const authorize = (cap: string) =>
      send(key, chain.collector, COLLECTOR_ABI, 'authorize', [permissionIdOf(sub.id), chain.token, units(cap), 86_400n, 0n]);
    await expect(setUpCollection(db, sub.id, { payer })).rejects.toThrow(/has not authorized/); // nothing on chain
    await authorize('9.99');
    await expect(setUpCollection(db, sub.id, { payer })).rejects.toThrow(/has not authorized/); // cap below the plan
    await authorize('10');
    expect(await setUpCollection(db, sub.id, { payer })).toMatchObject({ status: 'active', payer: payer.toLowerCase(), periodSeconds: 86_400 });
    await send(key, chain.collector, COLLECTOR_ABI, 'revoke', [permissionIdOf(sub.id)]);
    await expect(setUpCollection(db, sub.id, { payer })).rejects.toThrow(/has not authorized/);
  });
});
