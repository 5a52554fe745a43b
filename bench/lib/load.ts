import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
  /** Responses per HTTP status. */
  statusCodes: Record<string, number>;
}

/** Runs autocannon against one URL after a short warm-up; loopback only. */
export async function load(opts: {
  url: string;
  connections?: number;
  seconds?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: any, context: any) => any;
}): Promise<LoadResult> {
  const base = {
    url: opts.url,
    connections: opts.connections ?? 50,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.setupRequest ? [{ setupRequest: opts.setupRequest }] : undefined,
  };
  await autocannon({ ...base, duration: 2 });
  const r = await autocannon({ ...base, duration: opts.seconds ?? 10 });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    total: r.requests.total,
    statusCodes: Object.fromEntries(
      Object.entries((r as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}).map(([k, v]) => [k, v.count]),
    ),
  };
}
