import postgres from 'postgres';

/** Where a load's latency tail came from, measured around it (issue 50: "p99 5–10× the p50s"). */
export interface TailSources {
  /** Server GC pause over the load, ms, and its share of the load's wall time. */
  gcMs: number;
  gcShare: number;
  /** Server event-loop delay over the load (monitorEventLoopDelay): p50 / p99 / max, ms. */
  loopP50: number;
  loopP99: number;
  loopMax: number;
  /** Share of pg_stat_activity samples (every 20 ms) with a client backend waiting on a lock (row, tuple, transactionid). */
  lockWaitShare: number;
  /** Share of samples with every pooled connection of the app busy: requests wait in the pool then. */
  poolFullShare: number;
}

/** Node's default metrics as /metrics serves them (lib/metrics/registry.ts). */
async function scrape(baseUrl: string, token: string): Promise<Map<string, number>> {
  const text = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) => {
    if (!r.ok) throw new Error(`/metrics answered ${r.status}: set METRICS_TOKEN on the server`);
    return r.text();
  });
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(nodejs_gc_duration_seconds_sum|nodejs_eventloop_lag_(?:p50|p99|max)_seconds)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (m) out.set(m[1]!, (out.get(m[1]!) ?? 0) + Number(m[3]));
  }
  return out;
}

/**
 * Runs `load` while sampling the database's backends, and reads the server's GC and event-loop figures before and
 * after (a scrape resets the event-loop histogram, so the second one covers the load alone). `poolMax` is the app's
 * DB_POOL_MAX; the sampling connection is not counted.
 */
export async function withTailSources<T>(
  p: { baseUrl: string; metricsToken: string; databaseUrl: string; poolMax: number },
  load: () => Promise<T>,
): Promise<{ result: T; tail: TailSources }> {
  const sql = postgres(p.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const before = await scrape(p.baseUrl, p.metricsToken);
    let samples = 0;
    let lockWaits = 0;
    let poolFull = 0;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        const [row] = await sql<{ lock: number; busy: number }[]>`
          select count(*) filter (where wait_event_type = 'Lock')::int as lock,
                 count(*) filter (where state <> 'idle')::int as busy
          from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`;
        samples++;
        if (row!.lock > 0) lockWaits++;
        if (row!.busy >= p.poolMax) poolFull++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    const result = await load();
    const wallMs = performance.now() - t0;
    done = true;
    await sampler;
    const after = await scrape(p.baseUrl, p.metricsToken);
    const gcMs = ((after.get('nodejs_gc_duration_seconds_sum') ?? 0) - (before.get('nodejs_gc_duration_seconds_sum') ?? 0)) * 1000;
    const ms = (k: string) => Math.round((after.get(k) ?? 0) * 1000 * 10) / 10;
    return {
      result,
      tail: {
        gcMs: Math.round(gcMs),
        gcShare: gcMs / wallMs,
        loopP50: ms('nodejs_eventloop_lag_p50_seconds'),
        loopP99: ms('nodejs_eventloop_lag_p99_seconds'),
        loopMax: ms('nodejs_eventloop_lag_max_seconds'),
        lockWaitShare: samples ? lockWaits / samples : 0,
        poolFullShare: samples ? poolFull / samples : 0,
      },
    };
  } finally {
    await sql.end();
  }
}

/** One table cell: "GC 4 % (410 ms), loop p99 38 ms (max 95), lock waits 12 %, pool full 80 %". */
export function describeTail(t: TailSources): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  return `GC ${pct(t.gcShare)} (${t.gcMs} ms), loop p99 ${t.loopP99} ms (max ${t.loopMax}), lock waits ${pct(t.lockWaitShare)}, pool full ${pct(t.poolFullShare)}`;
}

/** What a bench needs to read the tail sources of its server. */
export interface TailContext {
  baseUrl: string;
  metricsToken: string;
  databaseUrl: string;
  poolMax: number;
}

/** The server env that lets withTailSources read it: /metrics on, behind this token. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';
