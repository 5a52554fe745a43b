import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { registerOTel } from '@vercel/otel';
import { traceQueries } from '@/lib/db/trace-queries';

/**
 * OpenTelemetry for this process (instrumentation.ts calls it only with OTEL_EXPORTER_OTLP_ENDPOINT set):
 * @vercel/otel exports Next's request spans to that endpoint (OTLP over HTTP; OTEL_* variables as usual),
 * our route spans (lib/metrics/observe-request.ts) name the route template, and every database statement
 * gets a child span (lib/db/trace-queries.ts). `spanProcessors` replaces the exporter (tests).
 */
export async function registerTracing(opts: { spanProcessors?: SpanProcessor[] } = {}): Promise<void> {
  registerOTel({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'usdt-gateway',
    ...(opts.spanProcessors ? { spanProcessors: opts.spanProcessors } : {}),
  });
  await traceQueries();
}
