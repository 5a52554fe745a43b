import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, idempotencyRequests, products } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';

async function namedKeys(t: Awaited<ReturnType<typeof createTestTenant>>, name: string) {
  const [row] = await t.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, t.tenant.id), eq(apiKeys.name, name)));
  return Number(row!.n);
}

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same key and body', async () => {
    const t = await createTestTenant();
    const body = { name: 'Idem product', price: '19.99' };
    const first = await call('POST', '/v1/products', { key: t.test, body, headers: { 'idempotency-key': 'k-1' } });
    const second = await call('POST', '/v1/products', { key: t.test, body, headers: { 'idempotency-key': 'k-1' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body).toEqual(first.body);
    const [row] = await t.db
      .select({ n: count() })
      .from(products)
      .where(and(eq(products.tenantId, t.tenant.id), eq(products.name, 'Idem product')));
    expect(Number(row!.n)).toBe(1);
  });

  it("an invoice's replay answers the invoice without the payer's checkout URL, which is never kept (issue 30 §1)", async () => {
    const t = await createTestTenant();
    const body = { amount: '12.00' };
    const headers = { 'idempotency-key': 'k-invoice' };
    const first = await call('POST', '/v1/invoices', { key: t.test, body, headers });
    const second = await call('POST', '/v1/invoices', { key: t.test, body, headers });
    expect(first.status, first.text).toBe(201);
    const token = new URL(first.body.checkoutUrl, 'http://x').searchParams.get('claim')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const { checkoutUrl: _url, ...invoice } = first.body;
    expect(second.body).toEqual(invoice);
    const [stored] = await t.db
      .select()
      .from(idempotencyRequests)
      .where(and(eq(idempotencyRequests.tenantId, t.tenant.id), eq(idempotencyRequests.idempotencyKey, 'k-invoice')));
    expect(stored!.responseBody).not.toContain(token);
  });

  it('a secret-issuing request is not run twice, and its replay does not show the secret again', async () => {
    const t = await createTestTenant();
    const body = { name: 'Idem', scopes: ['invoices:read'] };
    const first = await call('POST', '/v1/api-keys', { key: t.test, body, headers: { 'idempotency-key': 'k-secret' } });
    const second = await call('POST', '/v1/api-keys', { key: t.test, body, headers: { 'idempotency-key': 'k-secret' } });
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^gw_test_/);
    expect(second.status).toBe(409);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toMatchObject({ code: 'secret_not_replayable', details: [{ path: 'id', message: first.body.id }] });
    expect(JSON.stringify(second.body)).not.toContain(first.body.key);
    expect(await namedKeys(t, 'Idem')).toBe(1);
    const [stored] = await t.db
      .select()
      .from(idempotencyRequests)
      .where(and(eq(idempotencyRequests.tenantId, t.tenant.id), eq(idempotencyRequests.idempotencyKey, 'k-secret')));
    expect(stored!.responseBody).not.toContain(first.body.key);
    expect(JSON.parse(stored!.responseBody!)).toMatchObject({ id: first.body.id, lastFour: first.body.lastFour });
  });

  // Issue 14: the stored response handed the postback secret out again after the endpoint refused a second reveal.
  it('replaying the postback reveal with the first Idempotency-Key does not reveal the secret a second time', async () => {
    const t = await createTestTenant();
    const headers = { 'idempotency-key': 'reveal-1' };
    const first = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test, headers });
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_/);
    const direct = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test });
    expect(direct.status).toBe(409);
    expect(direct.body.code).toBe('invalid_state');
    const replay = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test, headers });
    expect(replay.status).toBe(409);
    expect(replay.body.code).toBe('secret_not_replayable');
    expect(JSON.stringify(replay.body)).not.toContain(first.body.secret);
    const stored = await t.db.select().from(idempotencyRequests).where(eq(idempotencyRequests.tenantId, t.tenant.id));
    expect(JSON.stringify(stored)).not.toContain(first.body.secret);
  });

  it('a refused secret-issuing request is replayed as it was (no secret in a 4xx)', async () => {
    const t = await createTestTenant();
    await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test });
    const headers = { 'idempotency-key': 'reveal-2' };
    const first = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test, headers });
    const again = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: t.test, headers });
    expect([first.status, again.status]).toEqual([409, 409]);
    expect(again.body.code).toBe('invalid_state');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('422 idempotency_key_reused for the same key with another body', async () => {
    const t = await createTestTenant();
    await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'One', scopes: ['admin'] }, headers: { 'idempotency-key': 'k-2' } });
    const res = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Two', scopes: ['admin'] }, headers: { 'idempotency-key': 'k-2' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await namedKeys(t, 'Two')).toBe(0);
  });

  it('keys are scoped per tenant: another tenant may use the same key', async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const body = { name: 'Shared', scopes: ['admin'] };
    expect((await call('POST', '/v1/api-keys', { key: a.test, body, headers: { 'idempotency-key': 'same' } })).status).toBe(201);
    const res = await call('POST', '/v1/api-keys', { key: b.test, body, headers: { 'idempotency-key': 'same' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('409 while the first request with the key is still in flight', async () => {
    const t = await createTestTenant();
    const body = { name: 'Racing', scopes: ['admin'] };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '/v1/api-keys', { key: t.test, body, headers: { 'idempotency-key': 'race' } })),
    );
    const statuses = results.map((r) => r.status).sort();
    // Exactly one request ran; the others either saw it in flight or replayed it (both 409).
    expect(await namedKeys(t, 'Racing')).toBe(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    // A replay of a key creation withholds the secret (secret_not_replayable).
    for (const r of results.filter((r) => r.status === 409)) expect(['idempotency_key_in_use', 'secret_not_replayable']).toContain(r.body.code);
  });

  it('409 deterministically against a held in-flight record', async () => {
    const t = await createTestTenant();
    await t.db.insert(idempotencyRequests).values({
      tenantId: t.tenant.id,
      mode: 'test',
      idempotencyKey: 'held',
      requestHash: 'x',
      state: 'in_flight',
    });
    // Same hash is needed to reach the in-flight check: compute by making the stored hash match.
    const body = { name: 'Held', scopes: ['admin'] };
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256')
      .update(`POST /v1/api-keys\n${JSON.stringify(body)}`)
      .digest('hex');
    await t.db.update(idempotencyRequests).set({ requestHash: hash }).where(eq(idempotencyRequests.idempotencyKey, 'held'));
    const res = await call('POST', '/v1/api-keys', { key: t.test, body, headers: { 'idempotency-key': 'held' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency_key_in_use');
    expect(await namedKeys(t, 'Held')).toBe(0);
  });

  it('remembers validation errors too, and refuses keys over 255 characters', async () => {
    const t = await createTestTenant();
    const bad = { name: '', scopes: ['admin'] };
    const first = await call('POST', '/v1/api-keys', { key: t.test, body: bad, headers: { 'idempotency-key': 'bad-1' } });
    const again = await call('POST', '/v1/api-keys', { key: t.test, body: bad, headers: { 'idempotency-key': 'bad-1' } });
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const long = await call('POST', '/v1/api-keys', {
      key: t.test,
      body: { name: 'x', scopes: ['admin'] },
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('validation_failed');
  });
});
