import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcBatch } from '@/lib/chain/rpc-batch';
import { fetchFiatRates } from '@/lib/fiat-rates/fetch-fiat-rates';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { registerTracing } from './register-tracing';

// What instrumentation.ts does with OTEL_EXPORTER_OTLP_ENDPOINT set, with the spans kept in memory instead of exported.
const exporter = new InMemorySpanExporter();
beforeAll(() => registerTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

// A node and a rate feed whose URLs carry their provider's key, as hosted ones do (path, query).
const KEY = 'SECRETproviderKEY0123456789abcdef';
const upstream = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url!.startsWith('/rates')) res.end(JSON.stringify({ source: 'feed', rates: { EUR: '1.08' }, at: new Date().toISOString() }));
  else res.end(JSON.stringify([{ jsonrpc: '2.0', id: 1, result: '0x10' }]));
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

describe('tracing', () => {
  it("a /v1 request's trace shows its route and its database statements, without their parameters", async () => {
    const t = await createTestTenant();
    exporter.reset();
    const res = await call('GET', '/v1/tenants/me', { key: t.test });
    expect(res.status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'GET /v1/tenants/me');
    expect(root?.attributes).toMatchObject({ 'http.route': '/v1/tenants/me', 'http.request.method': 'GET' });
    const db = spans.filter((s) => s.name === 'db.query' && s.spanContext().traceId === root!.spanContext().traceId);
    expect(db.length).toBeGreaterThan(0);
    expect(db.every((s) => s.parentSpanContext?.spanId !== undefined)).toBe(true);
    const statements = db.map((s) => String(s.attributes['db.statement']));
    expect(statements.some((q) => /api_keys/.test(q))).toBe(true);
    // The key, its hash and the tenant id travel as parameters, never in the span.
    const all = JSON.stringify(spans.map((s) => s.attributes));
    expect(all).not.toContain(t.test);
    expect(all).not.toContain(t.tenant.id);
  });

  it("an RPC call's and a rate feed's spans name their origin only: no provider key in any name or attribute", async () => {
    exporter.reset();
    await rpcBatch(`${base}/v3/${KEY}`, [{ method: 'eth_blockNumber', params: [] }]);
    await fetchFiatRates(`${base}/rates/latest?access_key=${KEY}`, new Date());
    const spans = exporter.getFinishedSpans();
    // The fetch instrumentation did record both calls (else this test could not fail).
    const fetches = spans.filter((s) => JSON.stringify(s.attributes).includes(base));
    expect(fetches.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })))).not.toContain(KEY);
  });
});
