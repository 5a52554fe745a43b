import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { rowsOf } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { createInvoice, invoiceDetail, sendToken } from '@/lib/testing/two-rails';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { upgradeApiVersion } from '@/lib/tenants/upgrade-api-version';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { verifyWebhook } from './verify-webhook';

/*
 * Dated API versions (issue 42 §3). Renaming mismatched_payment.* to held_payment.* changed what existing
 * subscribers received; a tenant pinned to the version before the rename keeps receiving the old names, signed
 * as any delivery, while a new tenant gets the new ones. The real worker (deliverDue) posts to a real receiver;
 * the held payments are real: USDC sent on a local chain to a USDT invoice's deposit address.
 */
const OLD = '2026-11-01';
const NEW = '2026-12-01';
const allow = parseAllowList('127.0.0.1');

let chain: AnvilChain;
let net: Network;
withTestChain(
  (c) => {
    chain = c;
    net = c.network('test');
  },
  {
    tokens: [
      { asset: 'USDT', decimals: 18 },
      { asset: 'USDC', decimals: 18 },
    ],
  },
);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => void (receiver = await startReceiver()));
afterAll(() => receiver.close());

const retry = { maxAttempts: 2, backoffMs: 0 };

/** A tenant as createTenant makes it; `pinned` sets its version as the migration pinned tenants from before versions. */
async function tenant(pinned?: string) {
  const t = await createTestTenant();
  if (pinned) await t.db.execute(sql`update tenants set api_version = ${pinned} where id = ${t.tenant.id}`);
  const jobs = () => runInvoiceJobs(t.db, net, { retry });
  await jobs(); // the watcher's cursor starts below the head
  return { ...t, jobs };
}

/** An endpoint created through the API, as an integration makes it. */
async function endpoint(key: string, eventsSubscribed: string[], headers: Record<string, string> = {}) {
  const res = await call('POST', '/v1/webhooks/endpoints', { key, headers, body: { url: receiver.url, eventsSubscribed } });
  expect(res.status, res.text).toBe(201);
  return res;
}

/** A held payment detected for real: USDC to a USDT invoice, mined and watched. */
async function heldPayment(t: Awaited<ReturnType<typeof tenant>>) {
  const inv = await createInvoice(t.test, { amount: '5.00' });
  await sendToken(chain, 'USDC', inv.depositAddress, '2');
  await chain.mine(5);
  await t.jobs();
  return inv;
}

/** Runs the worker for this tenant; what its endpoints received, parsed, with the raw delivery. */
async function delivered(t: { tenant: { id: string }; db: Awaited<ReturnType<typeof tenant>>['db'] }, secret: string) {
  const results = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
  expect(results.every((r) => r.status === 'SUCCEEDED')).toBe(true);
  const got = receiver.received.filter((r) => r.headers['x-tenant-id'] === t.tenant.id);
  return got.slice(got.length - results.length).map((r) => {
    const v = verifyWebhook({ secret, headers: r.headers as Record<string, string>, rawBody: r.rawBody });
    expect(v.ok).toBe(true);
    return JSON.parse(r.rawBody) as { id: string; type: string; apiVersion: string; data: Record<string, unknown> };
  });
}

describe('dated API versions', () => {
  it('a tenant pinned before the rename gets mismatched_payment.detected, signed, on the endpoint it subscribed with that name; a new tenant gets held_payment.detected', async () => {
    const old = await tenant(OLD);
    const ep = await endpoint(old.test, ['mismatched_payment.detected']);
    expect(ep.headers.get('Gateway-Version')).toBe(OLD);
    // The subscription reads back in the version's names, and the endpoint follows the tenant's version.
    expect(ep.body).toMatchObject({ eventsSubscribed: ['mismatched_payment.detected'], apiVersion: null });
    const inv = await heldPayment(old);
    const [sent, ...more] = await delivered(old, ep.body.secret);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ type: 'mismatched_payment.detected', apiVersion: OLD, data: { invoiceId: inv.id, token: 'USDC', status: 'held' } });
    // The stored event keeps its one name; only what is sent is rendered in the old version.
    const [stored] = rowsOf<{ type: string }>(await old.db.execute(sql`select type from events where id = ${sent!.id}`));
    expect(stored).toEqual({ type: 'held_payment.detected' });
    // The old version's invoice: the timeline and the field named as before.
    const d = await invoiceDetail(old.test, inv.id);
    expect(d.events.map((e: { type: string }) => e.type)).toContain('mismatched_payment.detected');
    expect(d.mismatchedPayments).toEqual(d.heldPayments);

    const fresh = await tenant();
    const ep2 = await endpoint(fresh.test, ['held_payment.detected']);
    expect(ep2.headers.get('Gateway-Version')).toBe(NEW);
    const inv2 = await heldPayment(fresh);
    const [sent2] = await delivered(fresh, ep2.body.secret);
    expect(sent2).toMatchObject({ type: 'held_payment.detected', apiVersion: NEW, data: { invoiceId: inv2.id, token: 'USDC' } });
    const d2 = await invoiceDetail(fresh.test, inv2.id);
    expect(d2.events.map((e: { type: string }) => e.type)).toContain('held_payment.detected');
    expect(d2).not.toHaveProperty('mismatchedPayments');
  });

  it('Gateway-Version overrides the tenant and key versions for one request and is echoed; an unknown version is a 400 naming the versions', async () => {
    const fresh = await tenant();
    const inv = await heldPayment(fresh);
    const asOld = await call('GET', `/v1/invoices/${inv.id}`, { key: fresh.test, headers: { 'Gateway-Version': OLD } });
    expect(asOld.status, asOld.text).toBe(200);
    expect(asOld.headers.get('Gateway-Version')).toBe(OLD);
    expect(asOld.body.events.map((e: { type: string }) => e.type)).toContain('mismatched_payment.detected');
    expect(asOld.body.mismatchedPayments).toEqual(asOld.body.heldPayments);
    const plain = await call('GET', `/v1/invoices/${inv.id}`, { key: fresh.test });
    expect(plain.headers.get('Gateway-Version')).toBe(NEW);
    expect(plain.body.events.map((e: { type: string }) => e.type)).toContain('held_payment.detected');

    for (const bad of ['2026-13-01', '2025-01-01', 'latest', '']) {
      const res = await call('GET', `/v1/invoices/${inv.id}`, { key: fresh.test, headers: { 'Gateway-Version': bad } });
      expect(res.status, `${bad}: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ code: 'unknown_api_version', message: expect.stringContaining(NEW) });
    }

    // A key may pin its own version; the header still wins over it.
    const made = await call('POST', '/v1/api-keys', {
      key: fresh.test,
      body: { name: 'legacy', scopes: ['invoices:read', 'webhooks:manage'], apiVersion: OLD },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.apiVersion).toBe(OLD);
    const byKey = await call('GET', `/v1/invoices/${inv.id}`, { key: made.body.key });
    expect(byKey.headers.get('Gateway-Version')).toBe(OLD);
    expect(byKey.body.events.map((e: { type: string }) => e.type)).toContain('mismatched_payment.detected');
    const overridden = await call('GET', `/v1/invoices/${inv.id}`, { key: made.body.key, headers: { 'Gateway-Version': NEW } });
    expect(overridden.headers.get('Gateway-Version')).toBe(NEW);
    // An endpoint made by that key gets the key's version, so its events read like the responses the key gets.
    const byKeyEndpoint = await endpoint(made.body.key, ['held_payment.detected']);
    expect(byKeyEndpoint.body).toMatchObject({ apiVersion: OLD, eventsSubscribed: ['mismatched_payment.detected'] });
    const badKey = await call('POST', '/v1/api-keys', { key: fresh.test, body: { name: 'x', scopes: ['invoices:read'], apiVersion: '2020-01-01' } });
    expect(badKey.status).toBe(400);
  });

  it("upgrading the tenant's version changes what the next delivery of an endpoint following it receives; a pinned endpoint keeps its version; audited", async () => {
    const old = await tenant(OLD);
    const following = await endpoint(old.test, ['mismatched_payment.detected', 'mismatched_payment.credited']);
    // An endpoint pinned to the old version at creation (its body names it) stays there after the upgrade.
    const pinned = await call('POST', '/v1/webhooks/endpoints', {
      key: old.test,
      body: { url: `${receiver.url}?pinned`, eventsSubscribed: ['mismatched_payment.detected', 'mismatched_payment.credited'], apiVersion: OLD },
    });
    expect(pinned.status, pinned.text).toBe(201);
    expect(pinned.body.apiVersion).toBe(OLD);

    const inv = await heldPayment(old);
    const first = await deliverDue(old.db, { tenantId: old.tenant.id, allow });
    expect(first.map((r) => r.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const before = receiver.received.filter((r) => r.headers['x-tenant-id'] === old.tenant.id).map((r) => JSON.parse(r.rawBody));
    expect(before.map((b) => `${b.type} ${b.apiVersion}`).sort()).toEqual([
      'mismatched_payment.detected 2026-11-01',
      'mismatched_payment.detected 2026-11-01',
    ]);

    const actor = { kind: 'user' as const, id: 'usr_owner', label: 'owner@example.com' };
    await expect(upgradeApiVersion(old.db, { tenantId: old.tenant.id, mode: 'test' }, actor, { apiVersion: '2099-01-01' })).rejects.toMatchObject({
      code: 'unknown_api_version',
    });
    expect(await upgradeApiVersion(old.db, { tenantId: old.tenant.id, mode: 'test' }, actor, { apiVersion: NEW })).toMatchObject({ apiVersion: NEW });
    // Never back: a pinned key or endpoint is how an integration stays on an older version.
    await expect(upgradeApiVersion(old.db, { tenantId: old.tenant.id, mode: 'test' }, actor, { apiVersion: OLD })).rejects.toMatchObject({
      code: 'invalid_state',
    });
    const [entry] = await old.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, old.tenant.id), eq(auditLog.action, 'tenant.api_version_upgraded')));
    expect(entry).toMatchObject({ before: { apiVersion: OLD }, after: { apiVersion: NEW } });
    expect((await call('GET', '/v1/tenants/me', { key: old.test })).body.apiVersion).toBe(NEW);

    // The next event: the endpoint that follows the tenant now gets the new name, under a subscription it made with the old one.
    const held = (await invoiceDetail(old.test, inv.id)).heldPayments[0];
    const credit = await call('POST', `/v1/invoices/${inv.id}/held-payments/${held.id}/credit`, { key: old.test, body: {} });
    expect(credit.status, credit.text).toBe(200);
    await deliverDue(old.db, { tenantId: old.tenant.id, allow });
    const after = receiver.received
      .filter((r) => r.headers['x-tenant-id'] === old.tenant.id)
      .slice(before.length)
      .map((r) => ({ body: JSON.parse(r.rawBody) }));
    const types = after.map((a) => `${a.body.type} ${a.body.apiVersion}`).sort();
    expect(types).toContain('held_payment.credited 2026-12-01');
    expect(types).toContain('mismatched_payment.credited 2026-11-01');
    const fresh = await call('GET', `/v1/webhooks/endpoints/${following.body.id}`, { key: old.test });
    expect(fresh.body).toMatchObject({ apiVersion: null, eventsSubscribed: ['held_payment.detected', 'held_payment.credited'] });

    // Moving the endpoint back to the old version by PATCH: its next delivery is in the old names again.
    const unknown = await call('PATCH', `/v1/webhooks/endpoints/${following.body.id}`, { key: old.test, body: { apiVersion: '2026-10-01' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'apiVersion', message: expect.stringContaining(NEW) }]);
    const patched = await call('PATCH', `/v1/webhooks/endpoints/${following.body.id}`, { key: old.test, body: { apiVersion: OLD } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.apiVersion).toBe(OLD);
    const replay = await call('POST', `/v1/webhooks/replay/${after.find((a) => a.body.type === 'held_payment.credited')!.body.id}`, {
      key: old.test,
      body: { endpointId: following.body.id },
    });
    expect(replay.status, replay.text).toBe(202);
    const n = receiver.received.length;
    await deliverDue(old.db, { tenantId: old.tenant.id, allow });
    expect(
      receiver.received
        .slice(n)
        .map((r) => JSON.parse(r.rawBody))
        .map((b) => `${b.type} ${b.apiVersion}`),
    ).toEqual(['mismatched_payment.credited 2026-11-01']);
  });
});
