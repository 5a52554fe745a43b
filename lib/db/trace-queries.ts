import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const key = Symbol.for('gateway.db.traced');
type G = typeof globalThis & { [key]?: boolean };

/**
 * Gives every database statement a span (`db.query`, kind client) under the request or job span that ran
 * it, with the statement's text and never its parameters (they hold key hashes, addresses, amounts).
 * Drizzle runs every query through PostgresJsPreparedQuery.execute/all, so wrapping those two covers the
 * query builder, raw `db.execute` and transactions alike. Called only when tracing is on (instrumentation.ts).
 */
export async function traceQueries(): Promise<void> {
  const g = globalThis as G;
  if (g[key]) return;
  g[key] = true;
  const { PostgresJsPreparedQuery } = await import('drizzle-orm/postgres-js/session');
  const proto = PostgresJsPreparedQuery.prototype as unknown as Record<'execute' | 'all', (...a: unknown[]) => Promise<unknown>> & {
    queryString?: string;
  };
  const tracer = trace.getTracer('usdt-gateway-db');
  for (const method of ['execute', 'all'] as const) {
    const original = proto[method];
    proto[method] = function (this: { queryString: string }, ...args: unknown[]) {
      const statement = this.queryString;
      return tracer.startActiveSpan(
        'db.query',
        { kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql', 'db.statement': statement.slice(0, 2_000) } },
        async (span) => {
          try {
            return await original.apply(this, args);
          } catch (err) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: (err as { code?: string })?.code ?? 'error' });
            throw err;
          } finally {
            span.end();
          }
        },
      );
    };
  }
}
