import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditLog, events, invoices, refundRequests, tenants, users } from '@/db/schema';
import type { RefundRequestSource } from '@/db/schema/refund-requests';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { generateTotpSecret, totpCode } from '@/lib/auth/totp';
import { type Network } from '@/lib/chain/network';
import { sealSecret } from '@/lib/crypto/secret-box';
import { newId } from '@/lib/ids';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { RESOURCE_FACTORIES } from '@/lib/testing/resources';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { createUser } from '@/lib/users/create-user';
import { autoRefund, runAutoRefunds } from './auto-refund';
import { paymentSenders } from './payment-senders';
import { proposeRefundAddress, type ProposalLimits } from './propose-refund-address';

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});

const settled = settledInvoices(() => ({ chain, net }));
/** The payer's claim token of each invoice (from its create response). */
const claims = new Map<string, string>();
const settledInvoice = async (...args: Parameters<typeof settled.settledInvoice>) => {
  const t = await settled.settledInvoice(...args);
  claims.set(t.invoice.id, t.claim!);
  return t;
};
const LIMITS: ProposalLimits = { perAddressPerMinute: 1000, perInvoice: 10 };
let ip = 0;
const OWNER_ACTOR = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };
/**
 * A payer proposing with the given proof: the claim token (`payer_token`) or only the invoice id (`invoice_link`: no
 * token, refused since issue 30 §1). Claim links are redeemed through lib/refunds/claims.
 */
const propose = (db: any, invoiceId: string, source: RefundRequestSource) =>
  proposeRefundAddress(
    db,
    invoiceId,
    { destinationAddress: freshAddress(), claimToken: source === 'payer_token' ? claims.get(invoiceId) : undefined },
    { address: `198.51.100.${++ip % 250}:ar${process.pid}` },
    LIMITS,
  );
/** A proposal left from before claim tokens: made with only the invoice id, as the checkout then took it. */
async function legacyProposal(t: { db: any; invoice: { id: string }; tenant: { id: string } }) {
  const [row] = await t.db
    .insert(refundRequests)
    .values({
      id: newId('refundRequest'),
      tenantId: t.tenant.id,
      mode: 'test',
      invoiceId: t.invoice.id,
      destinationAddress: freshAddress().toLowerCase(),
      amount: '3',
      source: 'invoice_link',
      pendingReason: 'manual_source',
    })
    .returning();
  return row;
}
type Owner = { tenantId: string; mode: 'test' };
const policy = (db: any, owner: Owner, input: Record<string, unknown>) => updateAutoRefundPolicy(db, owner, OWNER_ACTOR, input);
const requestOf = async (db: any, id: string) => (await db.select().from(refundRequests).where(eq(refundRequests.id, id)))[0]!;
const tenantOf = async (db: any, id: string) => (await db.select().from(tenants).where(eq(tenants.id, id)))[0]!;
const refundsOf = async (key: string, invoiceId: string) => (await call('GET', `/v1/invoices/${invoiceId}/refunds`, { key })).body.data as unknown[];

describe('auto-refund only for safe claims, after the delay', () => {
  it('a proposal that knew only the invoice id is never automatic; a payer-token one waits the delay (announced), and a decline within it stops the refund', async () => {
    const t = await settledInvoice('20.00', '23.00', { setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true }) });
    // Knowing only the invoice id no longer makes a proposal at all (issue 30 §1)...
    expect(await propose(t.db, t.invoice.id, 'invoice_link').catch((e: unknown) => e)).toMatchObject({ code: 'claim_token_required' });
    // ...and one left from before claim tokens is never automatic.
    const link = { request: await legacyProposal(t) };
    expect(await requestOf(t.db, link.request.id)).toMatchObject({ autoRefundAfter: null, pendingReason: 'manual_source', source: 'invoice_link' });
    await runAutoRefunds(t.db);
    expect(await autoRefund(t.db, link.request.id)).toBe('skipped');
    expect(await requestOf(t.db, link.request.id)).toMatchObject({ status: 'PENDING' });
    expect(await refundsOf(t.test, t.invoice.id)).toEqual([]);
    // What the dashboard shows beside the proposed address: who paid, on chain.
    const senders = await paymentSenders(t.db, t.invoice.id);
    expect(senders).toHaveLength(1);
    expect(senders[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(senders[0]!.toLowerCase()).not.toBe(link.request.destinationAddress);

    // The payer, with the checkout's token: automatic, but only after the tenant's delay (default 1 hour).
    const made = await propose(t.db, t.invoice.id, 'payer_token');
    expect(made.autoRefund).toBe(false);
    const row = await requestOf(t.db, made.request.id);
    expect(row).toMatchObject({ source: 'payer_token', pendingReason: null });
    expect(row.autoRefundAfter.getTime() - row.createdAt.getTime()).toBe(3600_000);
    const api = (await call('GET', `/v1/refund-requests/${made.request.id}`, { key: t.test })).body;
    expect(api).toMatchObject({ source: 'payer_token', autoRefundAfter: row.autoRefundAfter.toISOString() });
    // Announced to the merchant at once (refund_request.created is in the outbox with the proposal).
    const created = await t.db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, made.request.id), eq(events.type, 'refund_request.created')));
    expect(created).toHaveLength(1);
    expect(await autoRefund(t.db, made.request.id)).toBe('skipped');
    await runAutoRefunds(t.db);
    expect(await requestOf(t.db, made.request.id)).toMatchObject({ status: 'PENDING' });

    // The merchant declines within the delay; once the delay has passed nothing is refunded.
    const declined = await call('POST', `/v1/refund-requests/${made.request.id}/decline`, { key: t.test, body: { reason: 'Not yours.' } });
    expect(declined.status, declined.text).toBe(200);
    await t.db
      .update(refundRequests)
      .set({ autoRefundAfter: new Date(Date.now() - 1000) })
      .where(eq(refundRequests.id, made.request.id));
    await runAutoRefunds(t.db);
    expect(await autoRefund(t.db, made.request.id)).toBe('skipped');
    expect(await requestOf(t.db, made.request.id)).toMatchObject({ status: 'DECLINED' });
    expect(await refundsOf(t.test, t.invoice.id)).toEqual([]);
  });

  it('switch-on time: a payment seen before the policy was switched on is never automatic; one seen after is refunded once the delay passes', async () => {
    const old = await settledInvoice('10.00', '12.00');
    await policy(old.db, old.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 });
    const on = await tenantOf(old.db, old.tenant.id);
    expect(on.autoRefundEnabledAt).toBeInstanceOf(Date);
    const asked = await propose(old.db, old.invoice.id, 'payer_token');
    expect(asked.autoRefund).toBe(false);
    expect(await requestOf(old.db, asked.request.id)).toMatchObject({ autoRefundAfter: null, pendingReason: 'before_policy' });
    await runAutoRefunds(old.db);
    expect(await autoRefund(old.db, asked.request.id)).toBe('skipped');
    expect(await requestOf(old.db, asked.request.id)).toMatchObject({ status: 'PENDING' });
    expect(await refundsOf(old.test, old.invoice.id)).toEqual([]);
    // Saving the policy again (on → on) does not move the switch-on time.
    await policy(old.db, old.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 });
    expect((await tenantOf(old.db, old.tenant.id)).autoRefundEnabledAt).toEqual(on.autoRefundEnabledAt);

    const fresh = await settledInvoice('10.00', '12.00', {
      setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 1 }),
    });
    const made = await propose(fresh.db, fresh.invoice.id, 'payer_token');
    const row = await requestOf(fresh.db, made.request.id);
    expect(row.autoRefundAfter.getTime() - row.createdAt.getTime()).toBe(1000);
    await vi.waitFor(
      async () => {
        await runAutoRefunds(fresh.db);
        expect(await requestOf(fresh.db, made.request.id)).toMatchObject({ status: 'APPROVED', decidedBy: 'policy' });
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(await refundsOf(fresh.test, fresh.invoice.id)).toHaveLength(1);

    // Switched off and on again during the delay: the payment now predates the policy, and the refund-time check refuses.
    const mid = await settledInvoice('10.00', '12.00', { setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true }) });
    const pending = await propose(mid.db, mid.invoice.id, 'payer_token');
    expect((await requestOf(mid.db, pending.request.id)).autoRefundAfter).not.toBeNull();
    await policy(mid.db, mid.owner, { autoRefundOverpayments: false });
    expect((await tenantOf(mid.db, mid.tenant.id)).autoRefundEnabledAt).toBeNull();
    await policy(mid.db, mid.owner, { autoRefundOverpayments: true });
    await mid.db
      .update(refundRequests)
      .set({ autoRefundAfter: new Date(Date.now() - 1000) })
      .where(eq(refundRequests.id, pending.request.id));
    await runAutoRefunds(mid.db);
    expect(await requestOf(mid.db, pending.request.id)).toMatchObject({ status: 'PENDING', pendingReason: 'before_policy', autoRefundAfter: null });
    expect(await refundsOf(mid.test, mid.invoice.id)).toEqual([]);
  });

  it('an overpayment above min(10 × the price, 1,000) is held for the merchant, who can still approve it; the bound is checked again at refund time', async () => {
    const big = await settledInvoice('10.00', '111.00', {
      setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 }),
    });
    const made = await propose(big.db, big.invoice.id, 'payer_token');
    expect(made.autoRefund).toBe(false);
    expect(await requestOf(big.db, made.request.id)).toMatchObject({ autoRefundAfter: null, pendingReason: 'over_auto_refund_bound' });
    await runAutoRefunds(big.db);
    expect(await autoRefund(big.db, made.request.id)).toBe('skipped');
    expect((await call('GET', `/v1/refund-requests/${made.request.id}`, { key: big.test })).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'over_auto_refund_bound',
    });
    const ok = await call('POST', `/v1/refund-requests/${made.request.id}/approve`, { key: big.test, body: {} });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'APPROVED', decidedBy: expect.stringMatching(/^api_key:/) });

    // Within the bound when proposed, but the owner lowers the bound before the job runs: held, not refunded.
    const small = await settledInvoice('10.00', '13.00', {
      setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 }),
    });
    const asked = await propose(small.db, small.invoice.id, 'payer_token');
    expect((await requestOf(small.db, asked.request.id)).autoRefundAfter).not.toBeNull();
    await policy(small.db, small.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0, autoRefundMaxAmount: '2.00' });
    await runAutoRefunds(small.db);
    expect(await requestOf(small.db, asked.request.id)).toMatchObject({ status: 'PENDING', pendingReason: 'over_auto_refund_bound' });
    expect(await refundsOf(small.test, small.invoice.id)).toEqual([]);
  });
});

describe('changing the policy', () => {
  it('a delay lengthened after a proposal is waiting applies to it, and so does one shortened (issue 42 §2)', async () => {
    const t = await settledInvoice('20.00', '23.00', {
      setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 60 }),
    });
    const made = await propose(t.db, t.invoice.id, 'payer_token');
    const asked = await requestOf(t.db, made.request.id);
    expect(asked.autoRefundAfter.getTime() - asked.createdAt.getTime()).toBe(60_000);
    // The owner lengthens the delay to a day while the proposal waits: the policy says a decline is possible for a day.
    await policy(t.db, t.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 86_400 });
    const at = (s: number) => new Date(asked.createdAt.getTime() + s * 1000);
    expect((await requestOf(t.db, made.request.id)).autoRefundAfter).toEqual(at(86_400));
    await runAutoRefunds(t.db, { now: at(120) });
    expect(await autoRefund(t.db, made.request.id, at(120))).toBe('skipped');
    expect(await requestOf(t.db, made.request.id)).toMatchObject({ status: 'PENDING' });
    expect(await refundsOf(t.test, t.invoice.id)).toEqual([]);
    // A row written before the change (or by a pass racing it) is judged by the delay in force at refund time.
    await t.db
      .update(refundRequests)
      .set({ autoRefundAfter: at(60) })
      .where(eq(refundRequests.id, made.request.id));
    await runAutoRefunds(t.db, { now: at(120) });
    expect(await requestOf(t.db, made.request.id)).toMatchObject({ status: 'PENDING', autoRefundAfter: at(86_400) });
    expect(await refundsOf(t.test, t.invoice.id)).toEqual([]);
    // Shortened again (the owner's step-up; no 2FA here): due by the new delay, refunded once it has passed.
    await policy(t.db, t.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 30 });
    expect((await requestOf(t.db, made.request.id)).autoRefundAfter).toEqual(at(30));
    await runAutoRefunds(t.db, { now: at(31) });
    expect(await requestOf(t.db, made.request.id)).toMatchObject({ status: 'APPROVED', decidedBy: 'policy' });
    expect(await refundsOf(t.test, t.invoice.id)).toHaveLength(1);
  });

  it('turning it on, lowering the delay or raising the bound needs step-up when 2FA is on and is audited; turning it off does not', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const user = await createUser(t.db, {
      email: `ar-${process.pid}-${Date.now()}@example.com`,
      password: 'correct horse battery',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const actor = userActor({ user });
    const secret = generateTotpSecret();
    await t.db
      .update(users)
      .set({ totpSecret: sealSecret(secret) })
      .where(eq(users.id, user.id));
    const set = (input: Record<string, unknown>) => updateAutoRefundPolicy(t.db, owner, actor, input);
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';

    await expect(set({ autoRefundOverpayments: true })).rejects.toMatchObject({ code: 'two_factor_required' });
    await expect(set({ autoRefundOverpayments: true, totpCode: wrong })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await tenantOf(t.db, t.tenant.id)).toMatchObject({ autoRefundOverpayments: false, autoRefundEnabledAt: null });
    await set({ autoRefundOverpayments: true, totpCode: totpCode(secret) });
    expect((await tenantOf(t.db, t.tenant.id)).autoRefundEnabledAt).toBeInstanceOf(Date);
    // Weaker settings need the code; stricter ones do not.
    await expect(set({ autoRefundOverpayments: true, autoRefundDelaySeconds: 60 })).rejects.toMatchObject({ code: 'two_factor_required' });
    await expect(set({ autoRefundOverpayments: true, autoRefundMaxAmount: '5000' })).rejects.toMatchObject({ code: 'two_factor_required' });
    await expect(set({ autoRefundOverpayments: true, autoRefundMaxMultiple: '20' })).rejects.toMatchObject({ code: 'two_factor_required' });
    await set({ autoRefundOverpayments: true, autoRefundDelaySeconds: 7200, autoRefundMaxAmount: '500', autoRefundMaxMultiple: '5' });
    await set({ autoRefundOverpayments: false });
    expect(await tenantOf(t.db, t.tenant.id)).toMatchObject({
      autoRefundOverpayments: false,
      autoRefundEnabledAt: null,
      autoRefundDelaySeconds: 7200,
    });
    await expect(set({ autoRefundOverpayments: true, autoRefundDelaySeconds: -1, totpCode: totpCode(secret) })).rejects.toMatchObject({
      code: 'validation_failed',
    });

    const audit = await t.db
      .select({ before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, t.tenant.id), eq(auditLog.action, 'tenant.auto_refund_policy_changed')))
      .orderBy(auditLog.createdAt);
    expect(audit).toHaveLength(3);
    expect(audit[0]).toEqual({
      before: { autoRefundOverpayments: false, autoRefundDelaySeconds: 3600, autoRefundMaxMultiple: '10', autoRefundMaxAmount: '1000' },
      after: { autoRefundOverpayments: true, autoRefundDelaySeconds: 3600, autoRefundMaxMultiple: '10', autoRefundMaxAmount: '1000' },
    });
    expect(audit[1]!.after).toEqual({
      autoRefundOverpayments: true,
      autoRefundDelaySeconds: 7200,
      autoRefundMaxMultiple: '5',
      autoRefundMaxAmount: '500',
    });

    // Read-only on the API; only the dashboard changes it.
    const me = (await call('GET', '/v1/tenants/me', { key: t.live })).body;
    expect(me).toMatchObject({
      autoRefundOverpayments: false,
      autoRefundDelaySeconds: 7200,
      autoRefundMaxMultiple: '5',
      autoRefundMaxAmount: '500.00',
      autoRefundEnabledAt: null,
    });
    const patch = await call('PATCH', '/v1/tenants/me', { key: t.live, body: { autoRefundDelaySeconds: 0 } });
    expect(patch.status).toBe(400);
    // Not a dashboard user: refused whatever the input.
    await expect(updateAutoRefundPolicy(t.db, owner, { kind: 'api_key', id: 'key_x' }, { autoRefundOverpayments: true })).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('the auto-refund job is fair across tenants and modes', () => {
  it("a test-mode tenant with 300 due requests does not starve another tenant's one or a live mode's one in a pass of 100", async () => {
    // The load: 300 due proposals of one tenant's test mode, on paid-looking invoices, older than the victims'.
    const noisy = await createTestTenant();
    await noisy.db
      .update(tenants)
      .set({ autoRefundOverpayments: true, autoRefundEnabledAt: new Date(Date.now() - 86_400_000), autoRefundDelaySeconds: 0 })
      .where(eq(tenants.id, noisy.tenant.id));
    const owner = { tenantId: noisy.tenant.id, mode: 'test' as const };
    const long = new Date(Date.now() - 3_600_000);
    for (let batch = 0; batch < 15; batch++) {
      const ids = await Promise.all(Array.from({ length: 20 }, () => RESOURCE_FACTORIES.invoice!(noisy.db, owner)));
      await noisy.db
        .update(invoices)
        .set({ status: 'CONFIRMED', amountReceived: '20' })
        .where(sql`${invoices.id} in ${ids}`);
      await noisy.db.insert(refundRequests).values(
        ids.map((invoiceId) => ({
          id: newId('refundRequest'),
          ...owner,
          invoiceId,
          destinationAddress: freshAddress().toLowerCase(),
          amount: '10',
          source: 'payer_token' as const,
          autoRefundAfter: long,
          createdAt: long,
        })),
      );
    }
    // A live-mode proposal of the same tenant (another partition), made directly like the load.
    const liveOwner = { tenantId: noisy.tenant.id, mode: 'live' as const };
    const liveInvoice = await RESOURCE_FACTORIES.invoice!(noisy.db, liveOwner);
    const liveId = newId('refundRequest');
    await noisy.db.insert(refundRequests).values({
      id: liveId,
      ...liveOwner,
      invoiceId: liveInvoice,
      destinationAddress: freshAddress().toLowerCase(),
      amount: '1',
      source: 'payer_token',
      autoRefundAfter: new Date(),
    });

    // The victim: a real overpayment of another tenant, proposed with the payer's token, due at once.
    const victim = await settledInvoice('10.00', '12.00', {
      setup: (x) => policy(x.db, x.owner, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 }),
    });
    const made = await propose(victim.db, victim.invoice.id, 'payer_token');
    const counts = await runAutoRefunds(victim.db, { limit: 100 });
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(100);
    expect(await requestOf(victim.db, made.request.id)).toMatchObject({ status: 'APPROVED', decidedBy: 'policy' });
    // The live partition was attempted too: its invoice is unpaid, so it is left to the merchant, saying why.
    expect(await requestOf(noisy.db, liveId)).toMatchObject({ status: 'PENDING', pendingReason: 'unpaid_invoice', autoRefundAfter: null });
  });
});
