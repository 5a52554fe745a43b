import { SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { RedactingSpanProcessor, redactText } from './redact-spans';

const TOKEN = 'clm_SECRETclaimTOKEN0123456789';
const SECRET = 'rcl_SECRETlinkSECRET0123456789';
const INVITE = 'inv_SECRETinviteTOKEN012345678';
const KEY = 'SECRETproviderKEY0123456789abcdef';

// Spans shaped as Next's request span and @vercel/otel's fetch span shape them, one per secret-bearing request.
const CASES: { name: string; attributes: Record<string, string | string[]>; kind: SpanKind }[] = [
  {
    name: `GET /pay/inv_01ABC?claim=${TOKEN}`,
    kind: SpanKind.SERVER,
    attributes: {
      'http.target': `/pay/inv_01ABC?claim=${TOKEN}`,
      'http.url': `http://127.0.0.1:3000/pay/inv_01ABC?claim=${TOKEN}`,
      'http.referer': `http://127.0.0.1:3000/pay/inv_01ABC?claim=${TOKEN}`,
      'url.query': `claim=${TOKEN}`,
    },
  },
  {
    name: `POST /pay/inv_01ABC?claim=${TOKEN}`,
    kind: SpanKind.SERVER,
    attributes: { 'http.target': `/pay/inv_01ABC?claim=${encodeURIComponent(TOKEN)}&_rsc=1`, 'next.route': '/pay/[invoiceId]' },
  },
  { name: `GET /refund-claim/${SECRET}`, kind: SpanKind.SERVER, attributes: { 'http.target': `/refund-claim/${SECRET}` } },
  {
    name: `GET /invite/${INVITE}`,
    kind: SpanKind.SERVER,
    attributes: { 'http.target': `/invite/${INVITE}?from=mail`, 'url.path': `/invite/${INVITE}` },
  },
  {
    name: `GET /api/auth/callback/github?code=${TOKEN}&state=${SECRET}`,
    kind: SpanKind.SERVER,
    attributes: { 'http.target': `/api/auth/callback/github?code=${TOKEN}&state=${SECRET}` },
  },
  {
    name: `fetch POST https://bsc-mainnet.example.io/v3/${KEY}`,
    kind: SpanKind.CLIENT,
    attributes: {
      'http.url': `https://bsc-mainnet.example.io/v3/${KEY}`,
      'url.full': `https://bsc-mainnet.example.io/v3/${KEY}`,
      'url.path': `/v3/${KEY}`,
    },
  },
  {
    name: `fetch GET https://rates.example.com/latest?access_key=${KEY}`,
    kind: SpanKind.CLIENT,
    attributes: {
      'http.url': `https://user:${KEY}@rates.example.com/latest?access_key=${KEY}`,
      'resource.name': [`https://rates.example.com/${KEY}`],
    },
  },
];

describe('RedactingSpanProcessor', () => {
  it('no claim token, link secret, invitation token or provider key reaches the exporter, in any name, attribute or event', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new RedactingSpanProcessor(), new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('t');
    for (const c of CASES) {
      const span = tracer.startSpan(c.name, { kind: c.kind, attributes: c.attributes });
      span.addEvent('exception', { 'exception.message': `fetch failed: ${c.attributes['http.url'] ?? c.attributes['http.target']}` });
      span.setStatus({ code: 2, message: `request to ${c.attributes['http.url'] ?? 'x'} failed` });
      span.end();
    }
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(CASES.length);
    const seen = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    for (const secret of [TOKEN, encodeURIComponent(TOKEN), SECRET, INVITE, KEY]) expect(seen).not.toContain(secret);
    // What is left still says what happened.
    expect(spans.map((s) => s.name)).toEqual([
      'GET /pay/inv_01ABC',
      'POST /pay/inv_01ABC',
      'GET /refund-claim/[token]',
      'GET /invite/[token]',
      'GET /api/auth/callback/github',
      'fetch POST https://bsc-mainnet.example.io',
      'fetch GET https://rates.example.com',
    ]);
    expect(spans[0]!.attributes).toMatchObject({ 'http.target': '/pay/inv_01ABC', 'http.url': 'http://127.0.0.1:3000', 'url.query': '[redacted]' });
    expect(spans[1]!.attributes['next.route']).toBe('/pay/[invoiceId]');
    expect(spans[3]!.attributes).toMatchObject({ 'http.target': '/invite/[token]', 'url.path': '/invite/[token]' });
    expect(spans[5]!.attributes['url.full']).toBe('https://bsc-mainnet.example.io');
  });

  it('leaves texts without secrets as they are (a SQL statement keeps its ? operator)', () => {
    for (const t of ['select data ? $1 from events', 'GET /v1/invoices/:id', 'render route (app) /refund-claim/[token]', 'db.query'])
      expect(redactText(t)).toBe(t);
  });
});
