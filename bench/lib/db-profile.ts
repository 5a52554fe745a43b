/**
 * Counts, in this process, database statements (by kind and table) and TRON node HTTP calls (by endpoint, and
 * JSON-RPC batches by their methods), to see where a bench's work goes. Wraps drizzle's postgres-js prepared
 * query (every statement goes through it, as lib/db/trace-queries.ts) and `fetch`; bench-only.
 */
export async function startProfile(nodeUrl: string) {
  const statements = new Map<string, number>();
  const calls = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

  const { PostgresJsPreparedQuery } = await import('drizzle-orm/postgres-js/session');
  const proto = PostgresJsPreparedQuery.prototype as unknown as Record<'execute' | 'all', (...a: unknown[]) => Promise<unknown>>;
  const originals = { execute: proto.execute, all: proto.all };
  for (const method of ['execute', 'all'] as const) {
    const original = originals[method];
    proto[method] = function (this: { queryString: string }, ...args: unknown[]) {
      add(statements, shapeOf(this.queryString));
      return original.apply(this, args);
    };
  }

  const originalFetch = globalThis.fetch;
  const base = nodeUrl.replace(/\/$/, '');
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(base)) {
      const path = url.slice(base.length);
      if (path === '/jsonrpc' && typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { method: string }[] | { method: string };
        add(calls, `/jsonrpc [${(Array.isArray(body) ? body : [body]).map((c) => c.method).join(',')}]`);
      } else add(calls, path);
    }
    return originalFetch(input, init);
  };

  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    totals: () => ({ statements: total(statements), nodeCalls: total(calls) }),
    /** The counts, most frequent first (`top` lines each). */
    report(top = 15): string[] {
      const lines = (m: Map<string, number>) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([k, v]) => `    ${String(v).padStart(7)}  ${k}`);
      return [`  database statements: ${total(statements)}`, ...lines(statements), `  TRON node HTTP calls: ${total(calls)}`, ...lines(calls)];
    },
    stop() {
      proto.execute = originals.execute;
      proto.all = originals.all;
      globalThis.fetch = originalFetch;
    },
  };
}

/** `select settlements`, `update invoices`, … : the statement's verb and first table, enough to group by. */
function shapeOf(q: string): string {
  const s = q.replace(/\s+/g, ' ').trim();
  const verb = (/^\(?\s*(\w+)/.exec(s)?.[1] ?? '?').toLowerCase();
  const table =
    verb === 'insert'
      ? /insert into "?(\w+)"?/i.exec(s)?.[1]
      : verb === 'update'
        ? /update "?(\w+)"?/i.exec(s)?.[1]
        : verb === 'delete'
          ? /delete from "?(\w+)"?/i.exec(s)?.[1]
          : /\bfrom "?(\w+)"?/i.exec(s)?.[1];
  const lock = /for update/i.test(s) ? ' for update' : '';
  return `${verb} ${table ?? '?'}${lock}`;
}
