import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

const tracer = () => trace.getTracer('usdt-gateway');

/**
 * Runs `fn` inside an active span when a tracer provider is registered (instrumentation.ts registers one
 * only with OTEL_EXPORTER_OTLP_ENDPOINT set); without one the API's no-op tracer makes this a plain call.
 */
export function traced<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message.slice(0, 200) : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}
