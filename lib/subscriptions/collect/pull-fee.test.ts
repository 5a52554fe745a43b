import { and, asc, eq, sql } from 'drizzle-orm';
import { createWalletClient, erc20Abi, http, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPulls, emails, events, gasSpend, invoices, ledgerEntries, subscriptionPeriods, subscriptions } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { EvmNetwork } from '@/lib/chain/network';
import { rowsOf, type Db } from '@/lib/db';
import { getNetworkCosts } from '@/lib/console/get-network-costs';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { call } from '@/lib/testing/app';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { createPlan } from '../create-plan';
import { createSubscription } from '../create-subscription';
import { runBilling } from '../run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from '../schemas';
import { permissionIdOf } from './collector-network';
import { runCollection, type CollectionOptions } from './run-collection';
import { setUpCollection } from './set-up-collection';
import { pullFeeEntries } from './pull-fee-entries';
import { cancelSubscription } from '../cancel-subscription';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import type { Settlement } from '@/db/schema';

/*
 * Issue 48, "whoever causes a cost pays it": the gas of a subscription's pull (the operator's collect and the admin's
 * allow of the deposit address) is the merchant's, priced in the invoice's token and taken from the pulled money when
 * it is credited; a reverted pull is the gateway's, as a failed withdrawal's network fee is. And no past-due
 * reminder while the period's pull is in flight.
 */
const DAY_MS = 86_400_000;
const GAS_COIN_USD = '3000';
let chain: AnvilChain;
let net: EvmNetwork;
let db: Db;
let t: Awaited<ReturnType<typeof createTestTenant>>;
const measured: string[] = [];
afterAll(() => {
  if (measured.length) console.log(`[pull fee at ${GAS_COIN_USD} USD per coin] ${measured.join('; ')}`);
});

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

beforeAll(async () => {
  t = await createTestTenant({ invoiceFeeRate: '0.01' });
  db = t.db;
  await jobs();
});

const jobs = () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
const owner = () => ({ tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } });
const units = (s: string) => parseUnits(s, 18);
const collect = (now: Date, opts: CollectionOptions = {}) =>
  runCollection(db, { now, tenantId: t.tenant.id, railLookup: () => ({ ...net, gasCoinUsd: GAS_COIN_USD }), ...opts });

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

/** A daily 10.00 subscription (one-day trial) whose payer holds 1,000 USDT, approved the collector and authorized 10 a day. */
async function subscribed() {
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
  const period = (n: number) => new Date(anchor.getTime() + n * DAY_MS + 60_000);
  return { sub, key, payer, period };
}

async function bill(subId: string, n: number, now: Date) {
  await clockTo(now);
  await runBilling(db, { now, tenantId: t.tenant.id });
  const rows = await db
    .select()
    .from(subscriptionPeriods)
    .where(eq(subscriptionPeriods.subscriptionId, subId))
    .orderBy(asc(subscriptionPeriods.periodStart));
  return rows[n]!;
}
const pullOf = async (invoiceId: string) => (await db.select().from(collectionPulls).where(eq(collectionPulls.invoiceId, invoiceId)))[0]!;
const invoiceOf = async (id: string) => (await db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const entries = () => db.select().from(ledgerEntries).where(eq(ledgerEntries.tenantId, t.tenant.id)).orderBy(asc(ledgerEntries.createdAt));

/** What the pull's transactions cost (gas_spend, wei), priced in the token at GAS_COIN_USD, rounded up to the cent. */
async function pricedGas(pullId: string) {
  const rows = await db.select().from(gasSpend).where(eq(gasSpend.referenceId, pullId));
  const wei = rows.reduce((s, r) => s.add(r.costWei), new Decimal(0));
  return {
    kinds: rows.map((r) => r.kind).sort(),
    wei: wei.toFixed(),
    fee: wei.div(new Decimal(10).pow(18)).times(GAS_COIN_USD).toDecimalPlaces(2, Decimal.ROUND_UP),
  };
}

async function settle(invoiceId: string) {
  await jobs();
  await chain.mine(5);
  await jobs();
  return invoiceOf(invoiceId);
}

describe("a pull's gas is the merchant's", () => {
  it('priced from its receipts in the invoice token, charged once with the credit of the pulled money', async () => {
    const { sub, period } = await subscribed();
    let expected = new Decimal(0);
    for (const n of [0, 1]) {
      const p = await bill(sub.id, n, period(n));
      expect(await collect(period(n))).toMatchObject({ pulled: 1 });
      const pull = await pullOf(p.invoiceId);
      const { kinds, fee } = await pricedGas(pull.id);
      expect(kinds).toEqual(['collector_allow', 'subscription_pull']);
      expect(fee.gt(0)).toBe(true);
      expect(new Decimal(pull.networkFee!).toFixed(2)).toBe(fee.toFixed(2));
      expect((await settle(p.invoiceId)).status).toBe('PAID_OUT');
      await settle(p.invoiceId); // again: nothing charged twice
      const charged = (await entries()).filter((e) => e.kind === 'pull_network_fee' && e.referenceId === pull.id);
      expect(charged.map((e) => new Decimal(e.amount).toFixed(2))).toEqual([fee.neg().toFixed(2)]);
      expect(charged[0]).toMatchObject({ referenceType: 'collection_pull', currency: 'USDT' });
      expected = expected.add('9.90').minus(fee);
      measured.push(`period ${n}: ${(await pricedGas(pull.id)).wei} wei -> ${fee.toFixed(2)} USDT`);
    }
    // The statement shows each as a network fee of the invoice, with the pull's transaction.
    const listed = await call('GET', '/v1/balance-transactions?type=network_fee&network=BSC', { key: t.test });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data[0]).toMatchObject({
      type: 'network_fee',
      sourceType: 'collection_pull',
      network: 'BSC',
      txHash: expect.stringMatching(/^0x/),
    });
    expect(listed.body.data[0].invoiceId).toMatch(/^inv_/);
    // The console sets the gas against what paid for it: the pulls' fees count among the fees earned there.
    const [costs] = (await getNetworkCosts(db, ['test'])).filter((r) => r.chainId === net.chainId);
    const charged = (await entries()).filter((e) => e.kind === 'pull_network_fee').reduce((s, e) => s.minus(e.amount), new Decimal(0));
    expect(new Decimal(costs!.windows['24h'].pullFees).gte(charged)).toBe(true);
    const all = await entries();
    expect(all.map((e) => e.kind).sort()).toEqual(['invoice_credit', 'invoice_credit', 'pull_network_fee', 'pull_network_fee']);
    expect(new Decimal(all.at(-1)!.balanceAfter).toFixed(2)).toBe(expected.toFixed(2));
  });

  it('gas above its credit: the credit pays what it can, the cancel takes what the balance holds, the next credit the rest', async () => {
    const { sub, period } = await subscribed();
    const p = await bill(sub.id, 0, period(0));
    // A gas coin this dear makes the pull's gas more than the 9.90 it brings.
    const dear = () => ({ ...net, gasCoinUsd: '200000' });
    expect(await runCollection(db, { now: period(0), tenantId: t.tenant.id, railLookup: dear })).toMatchObject({ pulled: 1 });
    const pull = await pullOf(p.invoiceId);
    const fee = new Decimal(pull.networkFee!);
    expect(fee.gt('10.90')).toBe(true);
    expect((await settle(p.invoiceId)).status).toBe('PAID_OUT');
    const fees = async () =>
      (await entries())
        .filter((e) => e.kind === 'pull_network_fee')
        .map((e) => [e.referenceId, new Decimal(e.amount).toFixed(2), new Decimal(e.balanceAfter).toFixed(2)]);
    // Up to the credit, never below zero.
    expect(await fees()).toEqual([[pull.id, '-9.90', '0.00']]);
    // 1.00 on the balance when the subscription is canceled: the cancel takes it, as the pull's second part.
    await postLedgerEntry(db, {
      tenantId: t.tenant.id,
      mode: 'test',
      currency: 'USDT',
      amount: '1.00',
      kind: 'invoice_credit',
      referenceType: 'settlement',
      referenceId: `stl_test_${t.tenant.id}`,
    });
    await cancelSubscription(db, { id: sub.id, tenantId: t.tenant.id, mode: 'test' }, { atPeriodEnd: false });
    expect(await fees()).toEqual([
      [pull.id, '-9.90', '0.00'],
      [`${pull.id}:2`, '-1.00', '0.00'],
    ]);
    // The rest rides on the tenant's next USDT credit, of any invoice, up to that credit.
    const credit = { id: 'stl_x', tenantId: t.tenant.id, mode: 'test', token: 'USDT', kind: 'invoice', invoiceId: 'inv_other', netAmount: '100' };
    const rest = await pullFeeEntries(db, credit as unknown as Settlement);
    expect(rest).toEqual([
      expect.objectContaining({ kind: 'pull_network_fee', referenceId: `${pull.id}:3`, amount: fee.minus('10.90').neg().toFixed() }),
    ]);
    expect(await pullFeeEntries(db, { ...credit, token: 'USDC' } as unknown as Settlement)).toEqual([]);
    const small = await pullFeeEntries(db, { ...credit, netAmount: '0.5' } as unknown as Settlement);
    expect(small.map((e) => e.amount)).toEqual(['-0.5']);
  });

  it('a reverted pull is not charged: the gateway bears it, as it does a failed withdrawal', async () => {
    const { sub, key, period } = await subscribed();
    const p = await bill(sub.id, 0, period(0));
    // Recorded and signed, then the payer sets the allowance to zero before the broadcast: the pull reverts on chain.
    const revoke = async () => void (await send(key, chain.token, erc20Abi, 'approve', [chain.collector, 0n]));
    expect(await collect(period(0), { hooks: { beforeBroadcast: revoke } })).toMatchObject({ fell_back: 1, pulled: 0 });
    const pull = await pullOf(p.invoiceId);
    expect(pull).toMatchObject({ status: 'failed', reason: 'reverted', networkFee: null });
    expect((await pricedGas(pull.id)).kinds).toContain('subscription_pull');
    expect(await entries()).toEqual([]);
  });
});

describe('past due while a pull is in flight', () => {
  it('no past_due and no reminder while the period has a pull recorded and not finished; then paid by the pull', async () => {
    const { sub, period } = await subscribed();
    const p = await bill(sub.id, 0, period(0));
    const crash = () => {
      throw new Error('worker killed');
    };
    expect(await collect(period(0), { hooks: { beforeBroadcast: crash } })).toMatchObject({ failed: 1 });
    expect(await pullOf(p.invoiceId)).toMatchObject({ status: 'signed' });
    // Billing runs past the invoice's due date while the pull is still only recorded.
    const late = new Date(p.dueAt.getTime() + 60_000);
    await runBilling(db, { now: late, tenantId: t.tenant.id });
    const pastDue = await db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, sub.id), eq(events.type, 'subscription.past_due')));
    expect(pastDue).toEqual([]);
    const reminders = await db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'reminder'), eq(emails.subjectId, p.invoiceId)));
    expect(reminders).toEqual([]);
    expect((await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id)))[0]!.status).not.toBe('past_due');
    // The pull is resumed (the same signed bytes) and pays the period.
    await collect(period(0));
    expect(await pullOf(p.invoiceId)).toMatchObject({ status: 'confirmed' });
    await settle(p.invoiceId);
    expect(['DETECTED', 'CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT']).toContain((await invoiceOf(p.invoiceId)).status);
    await runBilling(db, { now: late, tenantId: t.tenant.id });
    const after = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from emails where kind = 'reminder' and subject_id = ${p.invoiceId}`),
    );
    expect(after[0]!.n).toBe(0);
  });
});
