import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { OPERATIONS } from '@/lib/operations';
import { WEBHOOK_EVENTS } from '@/lib/events/webhook-docs';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createGatewayClient, createInvoice, GatewayError, getInvoice, listWithdrawals, pollInvoice, type GatewayClient } from './client';
import { handleWebhook, verifyWebhookSignature, type WebhookEvent } from './webhook';

// The receiver below listens on loopback: allow it, as the development setting does.
process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '127.0.0.1';

/** openapi-fetch's fetch, answered by the real /v1 route handlers in-process (responses are checked against the document there too). */
const inProcessFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const body = req.method === 'GET' ? undefined : await req.text();
  const res = await call(req.method, req.url, { rawBody: body || undefined, headers: Object.fromEntries(req.headers) });
  return new Response(res.text || null, { status: res.status, headers: res.headers });
};

let client: GatewayClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  const t = await createTestTenant();
  client = createGatewayClient({ baseUrl: 'http://localhost', apiKey: t.test, fetch: inProcessFetch });
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('examples/client (openapi-fetch over the generated types)', () => {
  it('creates an invoice, replays it with the same Idempotency-Key and polls it', async () => {
    const externalId = `order-${Date.now()}`;
    const invoice = await createInvoice(client, { amount: '12.50', externalId, metadata: { cart: 'c-1' } });
    expect(invoice).toMatchObject({ status: 'PENDING', amountExpected: '12.50', externalId });
    expect((await createInvoice(client, { amount: '12.50', externalId, metadata: { cart: 'c-1' } })).id).toBe(invoice.id);
    const polled = await pollInvoice(client, invoice.id, { until: ['PAID_OUT'], intervalMs: 10, timeoutMs: 30 });
    expect(polled.id).toBe(invoice.id);
    expect(polled.status).toBe('PENDING');
  });

  it('surfaces the error body as a GatewayError', async () => {
    const err = await getInvoice(client, 'inv_00000000000000000000000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).body.code).toBe('not_found');
  });

  it('lists withdrawals', async () => {
    const page = await listWithdrawals(client);
    expect(page).toEqual({ data: [], meta: { total: 0, page: 1, lastPage: 1 } });
  });

  it('verifies a real webhook delivery whose body matches the document', async () => {
    const { data: endpoint } = await client.POST('/v1/webhooks/endpoints', { body: { url: receiver.url, eventsSubscribed: ['*'] } });
    const { data: outcome } = await client.POST('/v1/webhooks/endpoints/{id}/test', { params: { path: { id: endpoint!.id } } });
    expect(outcome!.success).toBe(true);
    const got = receiver.received.at(-1)!;
    const headers = got.headers as Record<string, string>;
    const event = verifyWebhookSignature(endpoint!.secret, headers, got.rawBody);
    expect(event?.type).toBe('webhook.test');
    expect(verifyWebhookSignature('whsec_wrong', headers, got.rawBody)).toBeNull();
    expect(verifyWebhookSignature(endpoint!.secret, headers, got.rawBody.replace('Test', 'Tost'))).toBeNull();

    const doc = buildOpenApiDocument(OPERATIONS, WEBHOOK_EVENTS) as any;
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile({ ...doc.webhooks['webhook.test'].post.requestBody.content['application/json'].schema, components: doc.components });
    expect(validate(JSON.parse(got.rawBody)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('fulfils on invoice.paid_out with status PAID_OUT only', async () => {
    const shop = { fulfil: vi.fn(async () => {}), review: vi.fn(async () => {}) };
    const data = {
      txHashes: [] as string[],
      invoiceId: 'inv_1',
      tenantId: 'ten_1',
      chain: 'BSC',
      token: 'USDT',
      depositAddress: '0x0',
      amountExpected: '10.00',
      amountReceived: '10.00',
      feeAmount: '0.10',
      amountCredited: '9.90',
      status: 'PAID_OUT',
      expiresAt: '2026-01-01T00:00:00.000Z',
      confirmationsRequired: 5,
      metadata: {},
    } as const;
    const paidOut = (status: 'PAID_OUT' | 'EXPIRED'): WebhookEvent => ({
      id: 'evt_1',
      type: 'invoice.paid_out',
      apiVersion: '2026-12-01',
      createdAt: '2026-01-01T00:00:00.000Z',
      data: { ...data, status },
    });
    await handleWebhook(paidOut('PAID_OUT'), shop);
    await handleWebhook(paidOut('EXPIRED'), shop);
    expect(shop.fulfil).toHaveBeenCalledExactlyOnceWith('inv_1', '10.00');
    expect(shop.review).toHaveBeenCalledOnce();
  });
});
