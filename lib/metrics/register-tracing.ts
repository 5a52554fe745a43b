import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerOTel } from '@vercel/otel';
import { traceQueries } from '@/lib/db/trace-queries';
import { RedactingSpanProcessor } from './redact-spans';

/**
 * OpenTelemetry for this process (instrumentation.ts calls it only with OTEL_EXPORTER_OTLP_ENDPOINT set):
 * @vercel/otel exports Next's request spans to that endpoint (OTLP over HTTP; OTEL_* variables as usual),
 * our route spans (lib/metrics/observe-request.ts) name the route template, and every database statement
 * gets a child span (lib/db/trace-queries.ts). `spanProcessors` replaces the exporter (tests). Every span passes
 * RedactingSpanProcessor first (lib/metrics/redact-spans.ts): no claim token, link secret or provider key is exported.
 */
export async function registerTracing(opts: { spanProcessors?: SpanProcessor[] } = {}): Promise<void> {
  registerOTel({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'usdt-gateway',
    spanProcessors: [new RedactingSpanProcessor(), ...(opts.spanProcessors ?? ['auto' as const])],
  });
  await traceQueries();
}
