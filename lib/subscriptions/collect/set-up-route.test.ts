import { and, eq } from 'drizzle-orm';
import { createWalletClient, erc20Abi, http, parseUnits, type Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectionPulls, emails, invoices, subscriptionCollections, subscriptionPeriods } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { setNetworkOverride, type EvmNetwork } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { publicClient } from '@/lib/chain/clients';
import { redeemPortalLink } from '@/lib/portal/redeem-portal-link';
import { setUpCollectionFromPortal, turnOffCollectionFromPortal } from '@/lib/portal/portal-collection';
import { collectorRail, permissionIdOf } from './collector-network';
import { checkoutCollectionOffer } from './collection-offer';
import { recordPull } from './pull-tx';
import { setUpCollectionFromCheckout } from './turn-on-collection';
import { turnOffCollection } from './turn-off-collection';

/*
 * Turning automatic collection on, on anvil: by the merchant's key (POST /v1/subscriptions/{id}/collection) and by
 * the payer from the checkout with the invoice's claim token (never the ids alone). The consent is read from the
 * chain: a wallet that did not approve and authorize is refused with collection_not_authorized, a node that cannot be
 * read is service_unavailable with nothing kept. Turning it off releases the held invoice e-mail.
 */
let chain: AnvilChain;
let net: EvmNetwork;
let t: Awaited<ReturnType<typeof createTestTenant>>;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

beforeAll(async () => {
  t = await createTestTenant();
});

const units = (s: string) => parseUnits(s, 18);

async function send(key: Hex, address: Address, abi: Abi, functionName: string, args: unknown[]) {
  const wallet = createWalletClient({ chain: chain.client.chain, account: privateKeyToAccount(key), transport: http(chain.rpcUrl), cacheTime: 0 });
  const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 300_000n });
  return chain.client.waitForTransactionReceipt({ hash });
}

/** A daily subscription (its first invoice now), the claim token of that invoice from its e-mail, and a funded payer. */
async function subscription(tenant = t, amount = '10.00', customerEmail = 'pat@example.com') {
  const plan = await call('POST', '/v1/plans', { key: tenant.test, body: { name: 'Daily', amount, interval: 'day' } });
  expect(plan.status, plan.text).toBe(201);
  const created = await call('POST', '/v1/subscriptions', { key: tenant.test, body: { planId: plan.body.id, customerEmail } });
  expect(created.status, created.text).toBe(201);
  const sub = created.body;
  const [mail] = await tenant.db
    .select({ data: emails.data })
    .from(emails)
    .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, sub.latestInvoiceId)));
  const claim = new URL(mail!.data.payUrl!).searchParams.get('claim')!;
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  await chain.client.setBalance({ address: payer, value: units('1') });
  await chain.mint(payer, '100');
  const what = (await call('GET', `/v1/subscriptions/${sub.id}/collection`, { key: tenant.test })).body;
  const approve = () => send(key, chain.token, erc20Abi, 'approve', [what.approve.spender, BigInt(what.approve.amountPerPeriod) * 12n]);
  const a = what.authorize;
  const authorize = () =>
    send(key, what.collectorAddress, COLLECTOR_ABI, 'authorize', [
      a.subscriptionId,
      a.token,
      BigInt(a.maxPerPeriod),
      BigInt(a.periodSeconds),
      BigInt(a.start),
    ]);
  return { sub, invoiceId: sub.latestInvoiceId as string, claim, payer, approve, authorize };
}

const kept = async (subscriptionId: string) =>
  (await t.db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, subscriptionId)))[0];

async function withNodeDown<T>(fn: () => Promise<T>): Promise<T> {
  setNetworkOverride('test', { ...net, rpcUrl: 'http://127.0.0.1:9' });
  try {
    return await fn();
  } finally {
    setNetworkOverride('test', net);
  }
}

describe('POST /v1/subscriptions/{id}/collection', () => {
  it("keeps only what the payer signed on chain (authorize and approve); another tenant's id is a 404; a bad address a 400", async () => {
    const s = await subscription();
    const post = (payer: string, key = t.test) => call('POST', `/v1/subscriptions/${s.sub.id}/collection`, { key, body: { payer } });

    const nothing = await post(s.payer);
    expect(nothing.status, nothing.text).toBe(409);
    expect(nothing.body).toMatchObject({ code: 'collection_not_authorized', message: expect.stringContaining('has not authorized') });
    await s.authorize();
    const unapproved = await post(s.payer);
    expect(unapproved.status).toBe(409);
    expect(unapproved.body).toMatchObject({ code: 'collection_not_authorized', message: expect.stringContaining('has not approved') });
    // Someone else's wallet: it authorized nothing for this subscription.
    const stranger = await post(privateKeyToAccount(generatePrivateKey()).address);
    expect(stranger.body.code).toBe('collection_not_authorized');
    expect(await kept(s.sub.id)).toBeUndefined();

    expect((await post('0x1234')).body.code).toBe('invalid_address');
    const other = await createTestTenant();
    const foreign = await post(s.payer, other.test);
    expect(foreign.status).toBe(404);

    await s.approve();
    const on = await post(s.payer.toLowerCase());
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ state: 'authorized', payer: s.payer.toLowerCase(), allowance: '120', balance: '100' });
    expect(await kept(s.sub.id)).toMatchObject({ status: 'active', payer: s.payer.toLowerCase(), maxPerPeriod: '10.000000000000000000' });
  });

  it('a node that cannot be read is a 503 service_unavailable and nothing is kept', async () => {
    const s = await subscription();
    await s.approve();
    await s.authorize();
    const res = await withNodeDown(() => call('POST', `/v1/subscriptions/${s.sub.id}/collection`, { key: t.test, body: { payer: s.payer } }));
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(await kept(s.sub.id)).toBeUndefined();
  });
});

describe("the checkout's set-up (the payer's claim token)", () => {
  it('offers what GET …/collection says to sign where the rail has a collector, and only "Pay now" elsewhere', async () => {
    const s = await subscription();
    const what = (await call('GET', `/v1/subscriptions/${s.sub.id}/collection`, { key: t.test })).body;
    const offer = await checkoutCollectionOffer(t.db, s.invoiceId);
    expect(offer).toMatchObject({ supported: true, merchantName: t.tenant.name, amount: '10.00', token: 'USDT', periodDays: 1, on: null });
    if (!offer?.supported) throw new Error('no offer');
    const { chainId, tokenAddress, decimals, collectorAddress, approve, authorize } = what;
    expect(offer.signing).toEqual({ chainId, tokenAddress, decimals, collectorAddress, approve, authorize });
    expect(offer.approveUri).toBe(`ethereum:${tokenAddress}@${chainId}/approve?address=${collectorAddress}&uint256=${units('120')}`);
    expect(await checkoutCollectionOffer(t.db, s.invoiceId, { railLookup: () => undefined })).toMatchObject({ supported: false });
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } });
    expect(await checkoutCollectionOffer(t.db, inv.body.id)).toBeNull();
  });

  it('needs the claim token of one of the subscription invoices: none, a wrong one or another invoice’s is refused', async () => {
    const s = await subscription();
    const other = await createTestTenant();
    const theirs = await subscription(other);
    await s.approve();
    await s.authorize();
    const tryWith = (claimToken: string | undefined, invoiceId = s.invoiceId) =>
      setUpCollectionFromCheckout(t.db, invoiceId, { claimToken, payer: s.payer });

    await expect(tryWith(undefined)).rejects.toMatchObject({ code: 'claim_token_required', status: 403 });
    await expect(tryWith('x'.repeat(43))).rejects.toMatchObject({ code: 'claim_token_required' });
    // Another tenant's invoice's token, on this invoice; and this token on theirs.
    await expect(tryWith(theirs.claim)).rejects.toMatchObject({ code: 'claim_token_required' });
    await expect(tryWith(s.claim, theirs.invoiceId)).rejects.toMatchObject({ code: 'claim_token_required' });
    await expect(tryWith(s.claim, 'inv_01JD0000000000000000000000')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await kept(s.sub.id)).toBeUndefined();
    expect(await kept(theirs.sub.id)).toBeUndefined();

    // An invoice that is no subscription's, with its own token: nothing to set up.
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } });
    expect(inv.status, inv.text).toBe(201);
    const own = new URL(inv.body.checkoutUrl, 'http://x').searchParams.get('claim')!;
    await expect(setUpCollectionFromCheckout(t.db, inv.body.id, { claimToken: own, payer: s.payer })).rejects.toMatchObject({ code: 'not_found' });

    expect(await tryWith(s.claim)).toMatchObject({ status: 'active', payer: s.payer.toLowerCase() });
  });

  it('refuses a payer who did not sign, says so when the chain cannot be read (never "not authorized"), then turns off', async () => {
    const s = await subscription();
    const go = () => setUpCollectionFromCheckout(t.db, s.invoiceId, { claimToken: s.claim, payer: s.payer });
    await expect(go()).rejects.toMatchObject({ code: 'collection_not_authorized', status: 409 });
    await s.approve();
    await s.authorize();
    await expect(withNodeDown(go)).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(await kept(s.sub.id)).toBeUndefined();
    await expect(go()).resolves.toMatchObject({ status: 'active' });

    // The period's e-mail held for a pull (as billing writes it with collection on) goes out once collection is off.
    await t.db
      .update(emails)
      .set({ status: 'held' })
      .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, s.invoiceId)));
    expect(await turnOffCollection(t.db, s.sub.id, 'turned off by the customer')).toBe(true);
    expect(await turnOffCollection(t.db, s.sub.id, 'turned off by the customer')).toBe(false);
    expect(await kept(s.sub.id)).toMatchObject({ status: 'canceled', cancelReason: 'turned off by the customer' });
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, s.invoiceId)));
    expect(mail!.status).toBe('pending');
    expect((await call('GET', `/v1/subscriptions/${s.sub.id}/collection`, { key: t.test })).body).toMatchObject({ state: 'canceled' });
  });
});

describe('the customer portal', () => {
  const session = async (customerEmail: string) => {
    const res = await call('POST', '/v1/portal-sessions', { key: t.test, body: { customerEmail } });
    return (await redeemPortalLink(t.db, res.body.url.split('/portal/')[1]))!.secret;
  };

  it("turns on and off only the session customer's own collection; another's id is a 404, no session a 403", async () => {
    const ann = await subscription(t, '10.00', 'ann.portal@example.com');
    const bob = await subscription(t, '10.00', 'bob.portal@example.com');
    const annSession = await session('Ann.Portal@example.com');
    await ann.approve();
    await ann.authorize();
    await expect(setUpCollectionFromPortal(t.db, annSession, bob.sub.id, ann.payer)).rejects.toMatchObject({ code: 'not_found' });
    await expect(setUpCollectionFromPortal(t.db, 'nope', ann.sub.id, ann.payer)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(setUpCollectionFromPortal(t.db, annSession, ann.sub.id, ann.payer)).resolves.toMatchObject({ status: 'active' });

    await expect(turnOffCollectionFromPortal(t.db, await session('bob.portal@example.com'), ann.sub.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(turnOffCollectionFromPortal(t.db, undefined, ann.sub.id)).rejects.toMatchObject({ code: 'forbidden' });
    expect(await kept(ann.sub.id)).toMatchObject({ status: 'active' });
    expect(await turnOffCollectionFromPortal(t.db, annSession, ann.sub.id)).toBe(true);
    expect(await kept(ann.sub.id)).toMatchObject({ status: 'canceled', cancelReason: 'turned off by the customer' });
  });

  it('a pull the job listed before collection was turned off is not recorded (nothing signed)', async () => {
    const s = await subscription();
    await s.approve();
    await s.authorize();
    await setUpCollectionFromCheckout(t.db, s.invoiceId, { claimToken: s.claim, payer: s.payer });
    await turnOffCollection(t.db, s.sub.id, 'turned off by the customer');
    const [period] = await t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.invoiceId, s.invoiceId));
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, s.invoiceId));
    const rail = collectorRail()('test', 'BSC', 'USDT')!;
    const pull = {
      subscriptionId: s.sub.id,
      periodStart: period!.periodStart,
      invoiceId: s.invoiceId,
      amount: '10',
      depositAddress: inv!.depositAddress as Address,
      payer: s.payer,
      permissionId: permissionIdOf(s.sub.id),
      needsAllow: false,
    };
    expect(await recordPull(t.db, publicClient(rail.rpcUrl), rail, pull)).toBeNull();
    expect(await t.db.select().from(collectionPulls).where(eq(collectionPulls.subscriptionId, s.sub.id))).toEqual([]);
  });
});
