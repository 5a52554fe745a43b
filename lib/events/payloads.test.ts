import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { OPERATIONS } from '@/lib/operations';
import { WEBHOOK_EVENTS } from '@/lib/events/webhook-docs';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { failWithdrawal } from '@/lib/withdrawals/finish-withdrawal';
import { LATEST_API_VERSION } from '@/lib/api/versions';

/**
 * Events written by the real code paths (API calls, the withdrawal failure
 * path), wrapped in the envelope a delivery sends, validate against the
 * OpenAPI document's `webhooks` entry of their type. The chain-backed types
 * share these builders (lib/invoices/view.ts invoiceEventData), typed against
 * lib/events/payloads.ts.
 */
describe('event payloads as emitted match the OpenAPI webhooks section', () => {
  it('invoice, order and withdrawal events', async () => {
    const t = await createTestTenant();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', metadata: { cart: 'c-9' } } });
    expect(inv.status, inv.text).toBe(201);
    const product = await call('POST', '/v1/products', { key: t.test, body: { name: 'Mug', price: '12.50' } });
    expect(product.status, product.text).toBe(201);
    const order = await call('POST', '/v1/orders', {
      key: t.test,
      body: { items: [{ productId: product.body.id, quantity: 2 }], customerEmail: 'buyer@example.com' },
    });
    expect(order.status, order.text).toBe(201);
    expect((await call('POST', `/v1/orders/${order.body.id}/cancel`, { key: t.test })).status).toBe(200);
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: '50',
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `payloads-${process.pid}`,
        currency: 'USDT',
      }),
    );
    const wd = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: '10.00', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
    });
    expect(wd.status, wd.text).toBe(201);
    await failWithdrawal(t.db, wd.body.id, 'test failure');

    const doc = buildOpenApiDocument(OPERATIONS, WEBHOOK_EVENTS) as any;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const rows = await t.db.select().from(events).where(eq(events.tenantId, t.tenant.id)).orderBy(asc(events.createdAt));
    const types = new Set<string>();
    for (const e of rows) {
      const envelope = { id: e.id, type: e.type, apiVersion: LATEST_API_VERSION, createdAt: e.createdAt.toISOString(), data: e.data };
      const validate = ajv.compile({ ...doc.webhooks[e.type].post.requestBody.content['application/json'].schema, components: doc.components });
      expect(validate(envelope), `${e.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      types.add(e.type);
    }
    expect([...types].sort()).toEqual(['invoice.created', 'order.cancelled', 'order.created', 'withdrawal.created', 'withdrawal.failed']);
  });
});
