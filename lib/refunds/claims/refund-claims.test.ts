import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { events, refundClaims, refundRequests } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { type Network } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import { autoRefund } from '@/lib/refunds/requests/auto-refund';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { createUser } from '@/lib/users/create-user';
import { claimPage } from './claim-page';
import { createRefundClaim } from './create-refund-claim';
import { redeemRefundClaim, type ClaimUseLimits } from './redeem-refund-claim';

// The dashboard action reads the session next-auth would read from the cookie (test mode): the test sets whose it is.
const session = vi.hoisted(() => ({ sid: null as string | null }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
vi.mock('next/headers', () => ({ cookies: async () => ({ get: () => undefined }) }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const { createRefundClaimAction } = await import('@/app/dashboard/invoices/[id]/refund-claim-actions');

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});

const { settledInvoice, balance, onChain, send } = settledInvoices(() => ({ chain, net }));
const LIMITS: ClaimUseLimits = { perAddressPerMinute: 1000 };
let ip = 0;
const tokenOf = (url: string) => url.split('/refund-claim/')[1]!;
/** The payer on the claim page, from an address of their own so per-address limits do not mix tests. */
const claim = (db: any, url: string, address: string, limits = LIMITS) =>
  redeemRefundClaim(db, tokenOf(url), { destinationAddress: address }, { address: `192.0.2.${++ip % 250}:${process.pid}` }, limits);
const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
};
const NO_LONGER_VALID = { code: 'not_found', status: 404, message: 'This refund link is no longer valid.' };

describe('merchant refund claim links', () => {
  it('the merchant makes a link for an amount, the payer enters an address once, the approved refund pays that amount to it', async () => {
    const t = await settledInvoice('10.00', '10.00', { extra: '5' });
    expect(t.invoice.status).toBe('PAID_OUT');
    const made = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: t.invoice.id, amount: '4.00' } });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ invoiceId: t.invoice.id, amount: '4.00', status: 'OPEN', usedAt: null, refundRequestId: null });
    expect(made.body.createdBy).toMatch(/^api_key:key_/);
    expect(made.body.url).toMatch(/\/refund-claim\/[A-Za-z0-9_-]{43}$/);
    // 72 hours by default.
    const hours = (Date.parse(made.body.expiresAt) - Date.parse(made.body.createdAt)) / 3_600_000;
    expect(hours).toBeCloseTo(72, 3);
    // Only the sha256 of the token is stored; lists never show the url.
    const [row] = await t.db.select().from(refundClaims).where(eq(refundClaims.id, made.body.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(tokenOf(made.body.url)).digest('hex'));
    const listed = await call('GET', `/v1/refund-claims?invoiceId=${t.invoice.id}`, { key: t.test });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: made.body.id, status: 'OPEN' })]);
    expect(listed.text).not.toContain(tokenOf(made.body.url));
    expect(listed.body.data[0].url).toBeUndefined();

    // The payer's page: the merchant, the amount, the invoice's token and network.
    const page = await claimPage(t.db, tokenOf(made.body.url));
    expect(page).toMatchObject({ tenantName: t.tenant.name, amount: '4.00', rail: `USDT on ${CHAIN_SPECS[net.chain].name}`, youReceive: '4.00' });

    const payer = freshAddress();
    const used = await claim(t.db, made.body.url, payer.toLowerCase());
    expect(used.request).toMatchObject({ status: 'PENDING', source: 'claim_link', claimId: made.body.id, amount: '4.000000000000000000' });
    // One-time: the second use is refused with the same neutral answer as an unknown link, and the page says so.
    expect(await errorOf(claim(t.db, made.body.url, freshAddress()))).toMatchObject(NO_LONGER_VALID);
    expect(await claimPage(t.db, tokenOf(made.body.url))).toBeNull();
    expect(await errorOf(claim(t.db, `/refund-claim/${'A'.repeat(43)}`, freshAddress()))).toMatchObject(NO_LONGER_VALID);
    const after = (await call('GET', `/v1/refund-claims?invoiceId=${t.invoice.id}`, { key: t.test })).body.data[0];
    expect(after).toMatchObject({ status: 'USED', refundRequestId: used.request.id, usedAt: expect.any(String) });
    const created = await t.db.select({ type: events.type }).from(events).where(eq(events.subjectId, used.request.id));
    expect(created.map((e) => e.type)).toEqual(['refund_request.created']);

    // The merchant approves as any refund request: the claim's amount goes to the payer's address.
    const before = await balance(t);
    const ok = await call('POST', `/v1/refund-requests/${used.request.id}/approve`, { key: t.test, body: {} });
    expect(ok.status, ok.text).toBe(200);
    const w = (await call('GET', `/v1/withdrawals/${ok.body.withdrawalId}`, { key: t.test })).body;
    expect(w).toMatchObject({ amount: '4.00', destinationAddress: getAddress(payer), metadata: { refundOfInvoiceId: t.invoice.id } });
    expect(new Decimal(await balance(t)).lt(before)).toBe(true);
    await send();
    expect(await onChain(payer)).toBe('4');
  });

  it('amount bound, scopes, another tenant or mode is a 404, bad input is a 400', async () => {
    const t = await settledInvoice('10.00', '12.00');
    const id = t.invoice.id as string;
    // Settled 12.00: at most that, and open links count against it.
    const over = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '12.01' } });
    expect(over.status, over.text).toBe(400);
    expect(over.body.code).toBe('refund_exceeds_received');
    const first = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '10.00', expiresInHours: 1 } });
    expect(first.status, first.text).toBe(201);
    const second = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '2.01' } });
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('refund_exceeds_received');
    for (const [body, code] of [
      [{ invoiceId: id, amount: '0' }, 'amount_below_minimum'],
      [{ invoiceId: id, amount: '1.001' }, 'invalid_amount'],
      [{ invoiceId: id, amount: 1 }, 'validation_failed'],
      [{ invoiceId: id, amount: '1.00', expiresInHours: 721 }, 'validation_failed'],
      [{ invoiceId: id, amount: '1.00', expiresInHours: 0 }, 'validation_failed'],
      [{ invoiceId: id, amount: '1.00', expiresInHours: '24' }, 'validation_failed'],
      [{ invoiceId: id, amount: '1.00', expiresInHours: 1.5 }, 'validation_failed'],
      [{ invoiceId: id }, 'validation_failed'],
    ] as const) {
      const res = await call('POST', '/v1/refund-claims', { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    // An invoice with nothing settled has nothing to give back.
    const open = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    const none = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: open.body.id, amount: '1.00' } });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('nothing_to_refund');

    // Another tenant's or the other mode's invoice and claim are unknown.
    const other = await createTestTenant();
    for (const key of [other.test, t.live]) {
      expect((await call('POST', '/v1/refund-claims', { key, body: { invoiceId: id, amount: '1.00' } })).status).toBe(404);
      expect((await call('POST', `/v1/refund-claims/${first.body.id}/cancel`, { key, body: {} })).status).toBe(404);
      expect((await call('GET', `/v1/refund-claims?invoiceId=${id}`, { key })).body.data).toEqual([]);
    }
    expect((await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: 'inv_junk', amount: '1.00' } })).status).toBe(404);
    // Money's scope: a read key lists but cannot make or cancel a link.
    const ro = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'ro', scopes: ['withdrawals:read'] } });
    expect((await call('GET', '/v1/refund-claims', { key: ro.body.key })).status).toBe(200);
    expect((await call('POST', '/v1/refund-claims', { key: ro.body.key, body: { invoiceId: id, amount: '1.00' } })).status).toBe(403);
    expect((await call('POST', `/v1/refund-claims/${first.body.id}/cancel`, { key: ro.body.key, body: {} })).status).toBe(403);
  });

  it('canceled and expired links are refused with the neutral answer and write nothing', async () => {
    const t = await settledInvoice('10.00', '15.00');
    const id = t.invoice.id as string;
    const a = (await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '5.00' } })).body;
    const canceled = await call('POST', `/v1/refund-claims/${a.id}/cancel`, { key: t.test, body: {} });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toMatchObject({ id: a.id, status: 'CANCELED' });
    const again = await call('POST', `/v1/refund-claims/${a.id}/cancel`, { key: t.test, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect(await errorOf(claim(t.db, a.url, freshAddress()))).toMatchObject(NO_LONGER_VALID);
    expect(await claimPage(t.db, tokenOf(a.url))).toBeNull();

    // A canceled link's amount is free again; this one runs out (moved into the past, as time would).
    const b = (await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '15.00', expiresInHours: 1 } })).body;
    expect(b.status).toBe('OPEN');
    await t.db
      .update(refundClaims)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refundClaims.id, b.id));
    expect(await errorOf(claim(t.db, b.url, freshAddress()))).toMatchObject(NO_LONGER_VALID);
    expect(await claimPage(t.db, tokenOf(b.url))).toBeNull();
    const listed = (await call('GET', `/v1/refund-claims?invoiceId=${id}`, { key: t.test })).body.data;
    expect(listed.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      [b.id, 'EXPIRED'],
      [a.id, 'CANCELED'],
    ]);
    expect(await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, id))).toEqual([]);
  });

  it("a link supersedes the payer's undecided checkout-link proposal; bad addresses and floods are refused and leave it open", async () => {
    const t = await settledInvoice('10.00', '15.00', { settle: false });
    const id = t.invoice.id as string;
    // A proposal made before claim tokens, with only the invoice id (no longer accepted, still undecided).
    const [legacy] = await t.db
      .insert(refundRequests)
      .values({
        id: newId('refundRequest'),
        tenantId: t.tenant.id,
        mode: 'test',
        invoiceId: id,
        destinationAddress: freshAddress().toLowerCase(),
        amount: '5',
        source: 'invoice_link',
      })
      .returning();
    const old = { request: legacy! };
    await t.settle();
    const c = (await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '5.00' } })).body;
    expect(await errorOf(claim(t.db, c.url, t.invoice.depositAddress))).toMatchObject({ code: 'destination_deposit_address', status: 400 });
    expect(await errorOf(claim(t.db, c.url, '0x1234'))).toMatchObject({ code: 'invalid_address', status: 400 });
    const from = { address: `198.18.0.1:${process.pid}:${Date.now()}` };
    for (let i = 0; i < 2; i++)
      await errorOf(redeemRefundClaim(t.db, tokenOf(c.url), { destinationAddress: '0x12' }, from, { perAddressPerMinute: 2 }));
    expect(
      await errorOf(redeemRefundClaim(t.db, tokenOf(c.url), { destinationAddress: freshAddress() }, from, { perAddressPerMinute: 2 })),
    ).toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
    // Still open after all that.
    const used = await claim(t.db, c.url, freshAddress());
    const rows = await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, id));
    expect(rows.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [old.request.id, 'SUPERSEDED'],
        [used.request.id, 'PENDING'],
      ].sort(),
    );
  });

  it("a PENDING proposal made with the payer's own token is not overridden: 409 and the link stays open", async () => {
    const t = await settledInvoice('10.00', '15.00');
    const id = t.invoice.id as string;
    // As the payer's checkout (with its claim token) records a proposal.
    const [own] = await t.db
      .insert(refundRequests)
      .values({
        id: newId('refundRequest'),
        tenantId: t.tenant.id,
        mode: 'test',
        invoiceId: id,
        destinationAddress: freshAddress().toLowerCase(),
        amount: '5',
        source: 'payer_token',
      })
      .returning();
    const c = (await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: id, amount: '5.00' } })).body;
    expect(await errorOf(claim(t.db, c.url, freshAddress()))).toMatchObject({ code: 'conflict', status: 409 });
    expect((await t.db.select().from(refundRequests).where(eq(refundRequests.id, own!.id)))[0]!.status).toBe('PENDING');
    expect((await call('GET', `/v1/refund-claims?invoiceId=${id}`, { key: t.test })).body.data[0].status).toBe('OPEN');
  });

  it('two payers racing on one link: exactly one request, the other refused as no longer valid', async () => {
    const t = await settledInvoice('10.00', '15.00');
    const c = (await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: t.invoice.id, amount: '5.00' } })).body;
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => claim(t.db, c.url, freshAddress())));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === 'rejected')) expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'not_found' });
    expect(await t.db.select().from(refundRequests).where(eq(refundRequests.claimId, c.id))).toHaveLength(1);
  });

  it("with the auto-refund policy on, a link's request is refunded after the delay for the link's amount, not the invoice's overpayment", async () => {
    const owner = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };
    // Switched on before the payment (earlier payments are never automatic), with an hour's delay.
    const t = await settledInvoice('10.00', '10.00', {
      extra: '5',
      setup: (x) => updateAutoRefundPolicy(x.db, x.owner, owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 3600 }),
    });
    // Made by the owner (a key's links are never automatic: claim-link-attack.test.ts).
    const c = await createRefundClaim(t.db, t.owner, { invoiceId: t.invoice.id, amount: '3.00' }, owner);
    const used = await claim(t.db, c.url, freshAddress());
    expect(used.autoRefund).toBe(false);
    const after = used.request.autoRefundAfter!.getTime() - used.request.createdAt.getTime();
    expect(after).toBe(3_600_000);
    // Not before the delay: the merchant may still decline.
    expect(await autoRefund(t.db, used.request.id)).toBe('skipped');
    expect(await autoRefund(t.db, used.request.id, new Date(Date.now() + 3_601_000))).toBe('refunded');
    const r = (await call('GET', `/v1/refund-requests/${used.request.id}`, { key: t.test })).body;
    expect(r).toMatchObject({ status: 'APPROVED', decidedBy: 'policy', source: 'claim_link' });
    expect((await call('GET', `/v1/withdrawals/${r.withdrawalId}`, { key: t.test })).body.amount).toBe('3.00');
  });

  it('in the dashboard only those who may refund make links: a member is refused, the owner gets the url once', async () => {
    const t = await settledInvoice('10.00', '15.00');
    const PASSWORD = 'a-long-enough-password';
    const signIn = async (role: 'owner' | 'member') => {
      const u = await createUser(t.db, {
        email: `claim-${role}-${process.pid}-${Date.now()}@example.com`,
        password: PASSWORD,
        role,
        tenantId: t.tenant.id,
      });
      const out = await verifyCredentials(t.db, { email: u.email, password: PASSWORD }, { ip: `10.12.${ip % 250}.${++ip % 250}` });
      if (!out.ok) throw new Error(`sign-in refused: ${out.reason}`);
      session.sid = out.sessionId;
    };
    await signIn('member');
    const refused = await createRefundClaimAction(t.invoice.id, { amount: '5.00' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await t.db.select().from(refundClaims).where(eq(refundClaims.invoiceId, t.invoice.id))).toEqual([]);

    await signIn('owner');
    const done = await createRefundClaimAction(t.invoice.id, { amount: '5.00', expiresInHours: '24' });
    expect(done).toMatchObject({ ok: true, data: { amount: '5.00', status: 'OPEN', createdBy: expect.stringMatching(/^user:usr_/) } });
    if (!done.ok) throw new Error('unreachable');
    expect(done.data.url).toMatch(/\/refund-claim\/[A-Za-z0-9_-]{43}$/);
  });
});
