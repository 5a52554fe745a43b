/**
 * Example integration: a typed client made with openapi-fetch over the types
 * openapi-typescript generates from /v1/openapi.json (schema.d.ts, regenerate
 * with `npx openapi-typescript https://<gateway>/v1/openapi.json -o schema.d.ts`).
 * Copy it into your code base; examples/client/client.test.ts runs it against
 * the real route handlers.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Invoice = Schemas['InvoiceDetail'];
export type GatewayClient = ReturnType<typeof createGatewayClient>;

export function createGatewayClient(opts: { baseUrl: string; apiKey: string; fetch?: typeof fetch }) {
  return createClient<paths>({
    baseUrl: opts.baseUrl,
    headers: { Authorization: `Bearer ${opts.apiKey}` },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
}

/** Thrown with the gateway's error body (code, message, requestId) on any non-2xx answer. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly body: Schemas['Error'],
  ) {
    super(`${status} ${body.code}: ${body.message} (request ${body.requestId})`);
  }
}

function unwrap<T>(r: { data?: T; error?: Schemas['Error']; response: Response }): T {
  if (r.error || r.data === undefined) throw new GatewayError(r.response.status, r.error!);
  return r.data;
}

/** Creates an invoice; the Idempotency-Key makes a retry after a timeout safe (same answer, no second invoice). */
export async function createInvoice(client: GatewayClient, input: { amount: string; externalId: string; metadata?: Record<string, unknown> }) {
  return unwrap(
    await client.POST('/v1/invoices', {
      body: input,
      params: { header: { 'Idempotency-Key': `invoice-${input.externalId}` } },
    }),
  );
}

export async function getInvoice(client: GatewayClient, id: string): Promise<Invoice> {
  return unwrap(await client.GET('/v1/invoices/{id}', { params: { path: { id } } }));
}

/** Polls until the invoice reaches one of the statuses or the time runs out (webhooks are the better way; polling is the fallback). */
export async function pollInvoice(
  client: GatewayClient,
  id: string,
  opts: { until: Invoice['status'][]; intervalMs?: number; timeoutMs?: number },
): Promise<Invoice> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const invoice = await getInvoice(client, id);
    if (opts.until.includes(invoice.status) || Date.now() >= deadline) return invoice;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 5_000));
  }
}

export async function listWithdrawals(client: GatewayClient, page = 1) {
  return unwrap(await client.GET('/v1/withdrawals', { params: { query: { page, limit: 50 } } }));
}
