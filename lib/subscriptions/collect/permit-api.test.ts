import { and, eq, inArray } from 'drizzle-orm';
import { createWalletClient, erc20Abi, http, parseSignature, parseUnits, serializeSignature, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionSetups, emails, gasSpend, ledgerEntries, subscriptionCollections, subscriptionPeriods } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { setNetworkOverride, type EvmNetwork } from '@/lib/chain/network';
import { getNetworkCosts } from '@/lib/console/get-network-costs';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { runBilling } from '../run-billing';
import { permissionIdOf } from './collector-network';
import { submitPermitSetUp } from './submit-permit';
import { pullFeeEntries } from './pull-fee-entries';
import { postLedgerEntries, postLedgerEntry } from '@/lib/ledger/post-entry';
import type { Settlement } from '@/db/schema';
import { permitOfferFromCheckout, setUpCollectionByPermitFromCheckout } from './turn-on-collection';
import { runCollection } from './run-collection';
import { setUpCollection } from './set-up-collection';

/*
 * GET /v1/subscriptions/{id}/collection on a USDC rail (Ethereum's stand-in: Circle's FiatToken with EIP-2612): the
 * answer's `permit` block is what the payer's wallet signs; the gateway's operator submits permitAndAuthorize with it,
 * the payer never holds gas, and the period is then pulled as after approve + authorize.
 */
let chain: AnvilChain;
let net: EvmNetwork;
let t: Awaited<ReturnType<typeof createTestTenant>>;
const GAS_COIN_USD = '3000';

withTestChain(
  async (c) => {
    chain = c;
    // A gas coin price, so the set-up's gas is priced in USDC (price-pull-gas.ts) rather than a flat fee.
    net = { ...(c.network('test') as EvmNetwork), gasCoinUsd: GAS_COIN_USD };
    setNetworkOverride('test', net, 'ETHEREUM');
  },
  { chain: 'ETHEREUM', tokens: [{ asset: 'USDC', decimals: 6 }] },
);

beforeAll(async () => {
  t = await createTestTenant();
});

const units = (s: string) => parseUnits(s, 6);
const get = (id: string, query = '') => call('GET', `/v1/subscriptions/${id}/collection${query}`, { key: t.test });

type TypedData = { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, string> };
/** The wallet's eth_signTypedData_v4 of the answer's typed data, as (v, r, s). */
async function sign(key: Hex, td: TypedData) {
  const { EIP712Domain: _, ...types } = td.types;
  const sig = await privateKeyToAccount(key).signTypedData({ domain: td.domain, types, primaryType: td.primaryType, message: td.message } as never);
  const { r, s, yParity } = parseSignature(sig);
  return { v: yParity + 27, r, s };
}

describe('GET /v1/subscriptions/{id}/collection on a USDC rail: the permit block', () => {
  it('gives the typed data to sign; the signed pair, submitted by the operator, sets up collection and the period is pulled', async () => {
    const plan = await call('POST', '/v1/plans', {
      key: t.test,
      body: { name: 'Daily', amount: '10.00', chain: 'ETHEREUM', token: 'USDC', interval: 'day', trialDays: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'pam@example.com' } })).body;

    const bare = await get(sub.id);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toMatchObject({
      state: 'not_set_up',
      chain: 'ETHEREUM',
      token: 'USDC',
      permit: { permitValue: units('120').toString(), typedData: null },
    });
    const deadline = Number(bare.body.permit.deadline);
    expect(Math.abs(deadline - (Date.now() / 1000 + 3600))).toBeLessThan(60);
    expect((await get(sub.id, '?payer=0x1234')).status).toBe(400);

    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.mint(payer, '100');
    const res = await get(sub.id, `?payer=${payer}`);
    expect(res.status, res.text).toBe(200);
    const { permit, authorize } = res.body.permit.typedData;
    expect(permit).toMatchObject({
      domain: { name: 'USDC (test)', version: '2', chainId: chain.chainId },
      primaryType: 'Permit',
      message: { owner: payer, value: units('120').toString(), nonce: '0', deadline: res.body.permit.deadline },
    });
    expect(permit.domain.verifyingContract.toLowerCase()).toBe(chain.token.toLowerCase());
    expect(permit.message.spender.toLowerCase()).toBe(chain.collector.toLowerCase());
    expect(authorize).toMatchObject({
      domain: { name: 'SubscriptionCollector', version: '1', chainId: chain.chainId },
      primaryType: 'Authorize',
      message: {
        payer,
        subscriptionId: permissionIdOf(sub.id),
        maxPerPeriod: units('10').toString(),
        periodSeconds: '86400',
        start: res.body.authorize.start,
        nonce: '0',
      },
    });

    // The gateway's operator submits what the payer signed; the payer holds no gas coin at all.
    expect(await chain.client.getBalance({ address: payer })).toBe(0n);
    const m = authorize.message;
    const operator = createWalletClient({
      chain: chain.client.chain,
      account: privateKeyToAccount(chain.keys.gas),
      transport: http(chain.rpcUrl),
      cacheTime: 0,
    });
    const hash = await operator.writeContract({
      address: res.body.collectorAddress,
      abi: COLLECTOR_ABI,
      functionName: 'permitAndAuthorize',
      args: [
        payer,
        {
          subscriptionId: m.subscriptionId,
          token: m.token,
          maxPerPeriod: BigInt(m.maxPerPeriod),
          periodSeconds: BigInt(m.periodSeconds),
          start: BigInt(m.start),
        },
        BigInt(res.body.permit.permitValue),
        BigInt(res.body.permit.deadline),
        await sign(key, permit),
        await sign(key, authorize),
      ],
    });
    expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    await setUpCollection(t.db, sub.id, { payer });
    expect((await get(sub.id)).body).toMatchObject({ state: 'authorized', allowance: '120', balance: '100' });
    // The nonces moved on: the next typed data is a new consent.
    expect((await get(sub.id, `?payer=${payer}`)).body.permit.typedData.authorize.message.nonce).toBe('1');

    const at = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
    await chain.client.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000)) });
    await chain.mine(1);
    await runBilling(t.db, { now: at, tenantId: t.tenant.id });
    expect(await runCollection(t.db, { now: at, tenantId: t.tenant.id })).toMatchObject({ pulled: 1 });
    expect((await get(sub.id)).body).toMatchObject({ state: 'period_collected', balance: '90', allowance: '110' });
  });
});

/*
 * POST /v1/subscriptions/{id}/collection/permit: the payer's two signatures given to the gateway, which checks them
 * off chain, records and sends permitAndAuthorize from its gas wallet once per signed pair, turns collection on, and
 * charges the transaction's gas to the merchant with the subscription's next credit.
 */
describe("POST /v1/subscriptions/{id}/collection/permit: the gateway submits the payer's signatures", () => {
  const measured: string[] = [];
  afterAll(() => {
    if (measured.length) console.log(`[permit set-up] ${measured.join('; ')}`);
  });
  const operator = () => privateKeyToAccount(chain.keys.gas).address;
  const sent = () => chain.client.getTransactionCount({ address: operator() });
  const chainNow = async () => Number((await chain.client.getBlock()).timestamp);
  const post = (id: string, body: unknown) => call('POST', `/v1/subscriptions/${id}/collection/permit`, { key: t.test, body });
  const setUpsOf = (subId: string) => t.db.select().from(collectionSetups).where(eq(collectionSetups.subscriptionId, subId));

  /** A daily 10.00 USDC subscription (two-day trial: later than the chain's clock the test above moved), a payer holding 100 USDC and no gas coin. */
  async function subscribed() {
    const plan = await call('POST', '/v1/plans', {
      key: t.test,
      body: { name: 'Daily', amount: '10.00', chain: 'ETHEREUM', token: 'USDC', interval: 'day', trialDays: 2 },
    });
    expect(plan.status, plan.text).toBe(201);
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'pia@example.com' } })).body;
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.mint(payer, '100');
    return { sub, key, payer };
  }

  /** The answer's typed data signed by `by` (the payer unless given), with what the test alters first; and the body to submit. */
  async function signed(
    subId: string,
    key: Hex,
    alter: { by?: Hex; deadline?: bigint; value?: bigint; chainId?: number; submitChainId?: number } = {},
  ) {
    const payer = privateKeyToAccount(key).address;
    const res = await get(subId, `?payer=${payer}`);
    expect(res.status, res.text).toBe(200);
    const { permit, authorize } = res.body.permit.typedData as { permit: TypedData; authorize: TypedData };
    const deadline = (alter.deadline ?? BigInt((await chainNow()) + 3600)).toString();
    const value = (alter.value ?? BigInt(res.body.permit.permitValue)).toString();
    const chainId = alter.chainId ?? chain.chainId;
    const withDomain = (td: TypedData, message: Record<string, string>) => ({ ...td, domain: { ...td.domain, chainId }, message });
    const hex = async (td: TypedData) => {
      const { v, r, s } = await sign(alter.by ?? key, td);
      return serializeSignature({ r, s, v: BigInt(v) });
    };
    return {
      payer,
      chainId: alter.submitChainId ?? chainId,
      permitValue: value,
      deadline,
      permitSignature: await hex(withDomain(permit, { ...permit.message, value, deadline })),
      authorizeSignature: await hex(withDomain(authorize, { ...authorize.message, deadline })),
    };
  }

  it('a valid pair: one transaction from the gas wallet, allowance and permission on chain, collection on; its gas charged to the merchant', async () => {
    const { sub, key, payer } = await subscribed();
    const before = await sent();
    const res = await post(sub.id, await signed(sub.id, key));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: 'authorized', payer: payer.toLowerCase(), allowance: '120', balance: '100' });
    expect(await sent()).toBe(before + 1);
    expect(await chain.client.getBalance({ address: payer })).toBe(0n);
    expect(await chain.client.readContract({ address: chain.token, abi: erc20Abi, functionName: 'allowance', args: [payer, chain.collector] })).toBe(
      units('120'),
    );
    const [perm] = await setUpsOf(sub.id);
    expect(perm).toMatchObject({ status: 'confirmed', payer: payer.toLowerCase(), collectorNonce: '0' });
    const [kept] = await t.db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id));
    expect(kept).toMatchObject({ status: 'active', payer: payer.toLowerCase(), maxPerPeriod: expect.stringMatching(/^10(\.0+)?$/) });
    // Its gas, from the receipt, priced in USDC at the gas coin's price, rounded up to the cent.
    const [spend] = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, perm!.id));
    expect(spend).toMatchObject({ kind: 'collector_setup', txHash: perm!.txHash });
    const fee = new Decimal(spend!.costWei).div(new Decimal(10).pow(18)).times(GAS_COIN_USD).toDecimalPlaces(2, Decimal.ROUND_UP);
    expect(fee.gt(0)).toBe(true);
    expect(new Decimal(perm!.networkFee!).toFixed(2)).toBe(fee.toFixed(2));
    measured.push(`permitAndAuthorize ${perm!.gasUsed} gas, ${spend!.costWei} wei -> ${fee.toFixed(2)} USDC`);

    // The next period is pulled and credited: the set-up's gas is taken from that credit, once.
    const at = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
    await chain.client.setNextBlockTimestamp({ timestamp: BigInt(Math.floor(at.getTime() / 1000)) });
    await chain.mine(1);
    await runBilling(t.db, { now: at, tenantId: t.tenant.id });
    // (The subscription of the test above is due again too.)
    expect((await runCollection(t.db, { now: at, tenantId: t.tenant.id })).pulled).toBeGreaterThanOrEqual(1);
    const [period] = await t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, sub.id));
    for (let i = 0; i < 3; i++) {
      await runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
      await chain.mine(5);
    }
    const charged = await t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'setup_network_fee')));
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ referenceType: 'collection_setup', referenceId: perm!.id, currency: 'USDC' });
    expect(new Decimal(charged[0]!.amount).toFixed(2)).toBe(fee.neg().toFixed(2));
    expect(period!.invoiceId).toMatch(/^inv_/);
    // The console sets the gas against what paid for it: the set-up's charge counts with the pulls'.
    const fees = await t.db
      .select()
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.kind, ['pull_network_fee', 'setup_network_fee']));
    const [costs] = (await getNetworkCosts(t.db, ['test'])).filter((r) => r.chainId === chain.chainId);
    expect(new Decimal(costs!.windows['24h'].pullFees).toFixed(2)).toBe(fees.reduce((a, e) => a.minus(e.amount), new Decimal(0)).toFixed(2));
    // The statement lists it as a network fee with the set-up's transaction.
    const listed = await call('GET', '/v1/balance-transactions?type=network_fee', { key: t.test });
    expect(listed.body.data.map((d: { txHash: string }) => d.txHash)).toContain(perm!.txHash);
  });

  it('canceled before another paid invoice: the set-up gas is charged from the balance at the cancel, the rest with the next credit', async () => {
    // A tenant of its own, holding 0.10 USDC: less than the set-up's gas, so the charge is split in two parts.
    const shared = t;
    t = await createTestTenant();
    try {
      await postLedgerEntry(t.db, {
        tenantId: t.tenant.id,
        mode: 'test',
        currency: 'USDC',
        amount: '0.10',
        kind: 'invoice_credit',
        referenceType: 'settlement',
        referenceId: `stl_test_${t.tenant.id}`,
      });
      const { sub, key } = await subscribed();
      expect((await post(sub.id, await signed(sub.id, key))).status).toBe(200);
      const [perm] = await setUpsOf(sub.id);
      const fee = new Decimal(perm!.networkFee!);
      expect(fee.gt('0.10')).toBe(true);
      const canceled = await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } });
      expect(canceled.status, canceled.text).toBe(200);
      const setupFees = () =>
        t.db
          .select()
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'setup_network_fee')));
      // Charged when the cost became the merchant's for good, up to what the balance held: never below zero.
      expect((await setupFees()).map((e) => [e.referenceId, new Decimal(e.amount).toFixed(2), new Decimal(e.balanceAfter).toFixed(2)])).toEqual([
        [perm!.id, '-0.10', '0.00'],
      ]);
      // Canceling again charges nothing more.
      await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } });
      expect(await setupFees()).toHaveLength(1);
      // The rest rides on the tenant's next USDC credit, whichever invoice it is of, as the part `:2`.
      const credit = { id: 'stl_x', tenantId: t.tenant.id, mode: 'test', token: 'USDC', kind: 'invoice', invoiceId: 'inv_other', netAmount: '5' };
      const rest = await pullFeeEntries(t.db, credit as unknown as Settlement);
      expect(rest).toEqual([
        expect.objectContaining({ kind: 'setup_network_fee', referenceId: `${perm!.id}:2`, amount: fee.minus('0.10').neg().toFixed() }),
      ]);
      await postLedgerEntries(t.db, [
        { ...rest[0]!, amount: '5', kind: 'invoice_credit', referenceType: 'settlement', referenceId: credit.id },
        ...rest,
      ]);
      expect(await pullFeeEntries(t.db, { ...credit, id: 'stl_y' } as unknown as Settlement)).toEqual([]);
      const total = (await setupFees()).reduce((a, e) => a.minus(e.amount), new Decimal(0));
      expect(total.toFixed()).toBe(fee.toFixed());
      // The statement and the console count both parts with the set-up's transaction.
      const listed = await call('GET', '/v1/balance-transactions?type=network_fee', { key: t.test });
      expect(listed.body.data.map((d: { txHash: string }) => d.txHash)).toEqual([perm!.txHash, perm!.txHash]);
      expect(listed.body.data.map((d: { sourceId: string }) => d.sourceId)).toEqual([perm!.id, perm!.id]);
      const [costs] = (await getNetworkCosts(t.db, ['test'])).filter((r) => r.chainId === chain.chainId);
      const all = await t.db
        .select()
        .from(ledgerEntries)
        .where(inArray(ledgerEntries.kind, ['pull_network_fee', 'setup_network_fee']));
      expect(new Decimal(costs!.windows['24h'].pullFees).toFixed(2)).toBe(all.reduce((a, e) => a.minus(e.amount), new Decimal(0)).toFixed(2));
    } finally {
      t = shared;
    }
  });

  it('canceled at its period end by the billing job: the set-up gas is charged with that end', async () => {
    const shared = t;
    t = await createTestTenant();
    try {
      await postLedgerEntry(t.db, {
        tenantId: t.tenant.id,
        mode: 'test',
        currency: 'USDC',
        amount: '5.00',
        kind: 'invoice_credit',
        referenceType: 'settlement',
        referenceId: `stl_test_${t.tenant.id}`,
      });
      const { sub, key } = await subscribed();
      expect((await post(sub.id, await signed(sub.id, key))).status).toBe(200);
      const [perm] = await setUpsOf(sub.id);
      expect((await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: true } })).status).toBe(200);
      const setupFees = () =>
        t.db
          .select()
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'setup_network_fee')));
      // Not ended yet: its next invoice could still pay it.
      expect(await setupFees()).toEqual([]);
      await runBilling(t.db, { now: new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000), tenantId: t.tenant.id });
      const charged = await setupFees();
      expect(charged.map((e) => [e.referenceId, new Decimal(e.amount).toFixed()])).toEqual([
        [perm!.id, new Decimal(perm!.networkFee!).neg().toFixed()],
      ]);
    } finally {
      t = shared;
    }
  });

  it('a set-up in flight when the subscription is canceled: its gas is charged from the balance when it confirms', async () => {
    const shared = t;
    t = await createTestTenant();
    try {
      await postLedgerEntry(t.db, {
        tenantId: t.tenant.id,
        mode: 'test',
        currency: 'USDC',
        amount: '5.00',
        kind: 'invoice_credit',
        referenceType: 'settlement',
        referenceId: `stl_test_${t.tenant.id}`,
      });
      const { sub, key, payer } = await subscribed();
      const body = await signed(sub.id, key);
      const crash = () => {
        throw new Error('worker killed');
      };
      const input = { payer: payer as Address, chainId: body.chainId, permitValue: BigInt(body.permitValue), deadline: BigInt(body.deadline) };
      await expect(
        submitPermitSetUp(
          t.db,
          sub.id,
          { ...input, permitSignature: body.permitSignature as Hex, authorizeSignature: body.authorizeSignature as Hex },
          { afterRecord: crash },
        ),
      ).rejects.toThrow('worker killed');
      expect((await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } })).status).toBe(200);
      await runCollection(t.db, { tenantId: t.tenant.id });
      const [perm] = await setUpsOf(sub.id);
      expect(perm).toMatchObject({ status: 'confirmed' });
      const charged = await t.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'setup_network_fee')));
      expect(charged).toHaveLength(1);
      expect(charged[0]).toMatchObject({ referenceId: perm!.id, referenceType: 'collection_setup' });
      expect(new Decimal(charged[0]!.amount).toFixed()).toBe(new Decimal(perm!.networkFee!).neg().toFixed());
      expect(new Decimal(charged[0]!.balanceAfter).toFixed()).toBe(new Decimal('5').minus(perm!.networkFee!).toFixed());
    } finally {
      t = shared;
    }
  });

  it('refuses a wrong signer, a passed deadline, an allowance over the cap and another chain: 400 with a code, nothing sent', async () => {
    const { sub, key } = await subscribed();
    const before = await sent();
    const cases: [string, Parameters<typeof signed>[2]][] = [
      ['permit_invalid_signature', { by: generatePrivateKey() }],
      ['permit_expired', { deadline: BigInt((await chainNow()) - 10) }],
      ['permit_value_exceeds_cap', { value: units('130') }],
      ['permit_wrong_chain', { chainId: 5 }],
      // Signed for another chain but submitted as this one's: the signatures do not recover to the payer.
      ['permit_invalid_signature', { chainId: 5, submitChainId: chain.chainId }],
    ];
    for (const [code, alter] of cases) {
      const res = await post(sub.id, await signed(sub.id, key, alter));
      expect(res.status, `${code}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.details?.[0]?.path).toBeTruthy();
    }
    // A malformed signature never reaches the chain either.
    const body = await signed(sub.id, key);
    expect((await post(sub.id, { ...body, permitSignature: '0x1234' })).status).toBe(400);
    expect(await sent()).toBe(before);
    expect(await setUpsOf(sub.id)).toEqual([]);
    expect((await get(sub.id)).body.state).toBe('not_set_up');
    // The payer's own pair still goes through afterwards.
    expect((await post(sub.id, body)).status).toBe(200);
    expect(await sent()).toBe(before + 1);
  });

  it('a replayed submission and a concurrent pair: one transaction', async () => {
    const { sub, key } = await subscribed();
    const before = await sent();
    const body = await signed(sub.id, key);
    const [a, b] = await Promise.all([post(sub.id, body), post(sub.id, body)]);
    expect([a.status, b.status], `${a.text} ${b.text}`).toEqual([200, 200]);
    const again = await post(sub.id, body);
    expect(again.status, again.text).toBe(200);
    expect(again.body.state).toBe('authorized');
    expect(await sent()).toBe(before + 1);
    const rows = await setUpsOf(sub.id);
    expect(rows).toHaveLength(1);
    expect(await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, rows[0]!.id))).toHaveLength(1);
  });

  it('stopped between the record and the broadcast: nothing sent; the replay (or the collection job) sends the same bytes once', async () => {
    for (const resume of ['replay', 'job'] as const) {
      const { sub, key, payer } = await subscribed();
      const before = await sent();
      const body = await signed(sub.id, key);
      const crash = () => {
        throw new Error('worker killed');
      };
      const sub0 = { payer: payer as Address, chainId: body.chainId, permitValue: BigInt(body.permitValue), deadline: BigInt(body.deadline) };
      await expect(
        submitPermitSetUp(
          t.db,
          sub.id,
          { ...sub0, permitSignature: body.permitSignature as Hex, authorizeSignature: body.authorizeSignature as Hex },
          { afterRecord: crash },
        ),
      ).rejects.toThrow('worker killed');
      const [recorded] = await setUpsOf(sub.id);
      expect(recorded).toMatchObject({ status: 'signed' });
      expect(await sent()).toBe(before);
      if (resume === 'replay') expect((await post(sub.id, body)).status).toBe(200);
      else expect(await runCollection(t.db, { tenantId: t.tenant.id })).toMatchObject({ set_up: 1 });
      const rows = await setUpsOf(sub.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'confirmed', txHash: recorded!.txHash });
      expect(await sent()).toBe(before + 1);
      expect((await get(sub.id)).body.state).toBe('authorized');
    }
  });

  it("the checkout's sign path: the typed data and the submission need the invoice's claim token; then collection is on", async () => {
    const plan = await call('POST', '/v1/plans', {
      key: t.test,
      body: { name: 'Daily now', amount: '10.00', chain: 'ETHEREUM', token: 'USDC', interval: 'day' },
    });
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'cid@example.com' } })).body;
    const [mail] = await t.db
      .select({ data: emails.data })
      .from(emails)
      .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, sub.latestInvoiceId)));
    const claim = new URL(mail!.data.payUrl!).searchParams.get('claim')!;
    const key = generatePrivateKey();
    const payer = privateKeyToAccount(key).address;
    await chain.mint(payer, '100');
    await expect(permitOfferFromCheckout(t.db, sub.latestInvoiceId, { claimToken: 'x'.repeat(43), payer })).rejects.toMatchObject({
      code: 'claim_token_required',
    });
    // What the page's wallet signs: the offer for this payer, its deadline moved to the chain's clock (the tests above moved it).
    const offer = await permitOfferFromCheckout(t.db, sub.latestInvoiceId, { claimToken: claim, payer });
    expect(offer).toMatchObject({ chainId: chain.chainId, permitValue: units('120').toString() });
    const deadline = String((await chainNow()) + 3600);
    const hex = async (td: TypedData) => {
      const { v, r, s: sv } = await sign(key, { ...td, message: { ...td.message, deadline } });
      return serializeSignature({ r, s: sv, v: BigInt(v) });
    };
    const body = {
      payer,
      chainId: offer.chainId,
      permitValue: offer.permitValue,
      deadline,
      permitSignature: await hex(offer.typedData.permit as unknown as TypedData),
      authorizeSignature: await hex(offer.typedData.authorize as unknown as TypedData),
    };
    const before = await sent();
    await expect(setUpCollectionByPermitFromCheckout(t.db, sub.latestInvoiceId, { claimToken: undefined, body })).rejects.toMatchObject({
      code: 'claim_token_required',
    });
    expect(await sent()).toBe(before);
    expect(await setUpCollectionByPermitFromCheckout(t.db, sub.latestInvoiceId, { claimToken: claim, body })).toMatchObject({
      status: 'active',
      payer: payer.toLowerCase(),
    });
    expect(await sent()).toBe(before + 1);
  });
});
