import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { registerTracing } from './register-tracing';

// What instrumentation.ts does with OTEL_EXPORTER_OTLP_ENDPOINT set, with the spans kept in memory instead of exported.
const exporter = new InMemorySpanExporter();
beforeAll(() => registerTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

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
});
