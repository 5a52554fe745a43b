/** The local job worker: runs lib/jobs/registry.ts on its schedules until SIGINT/SIGTERM. */
import { checkRailsAtStart } from '@/lib/chain/check-rails-at-start';
import { closeDb, getDb, migrate } from '@/lib/db';
import { env } from '@/lib/env';
import { runWorker } from '@/lib/jobs/worker';
import { serveProcessMetrics } from '@/lib/metrics/serve-metrics';

const e = env();
// Job and database spans when an OTLP endpoint is set, as the app does in instrumentation.ts.
if (e.OTEL_EXPORTER_OTLP_ENDPOINT) await (await import('@/lib/metrics/register-tracing')).registerTracing();
if (!e.DATABASE_URL) {
  console.error('DATABASE_URL: the standalone worker needs PostgreSQL; with the embedded database the worker runs inside the web process');
  process.exit(1);
}
const db = await getDb();
if (e.APP_ENV !== 'production') await migrate();
await checkRailsAtStart({ production: e.APP_ENV === 'production' });
const controller = new AbortController();
// The worker's own counters (job runs, webhook deliveries) for Prometheus: docs/operations.md.
const metrics = e.METRICS_PORT && e.METRICS_TOKEN ? serveProcessMetrics(e.METRICS_PORT, e.METRICS_TOKEN) : null;
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => controller.abort());
await runWorker({ db, signal: controller.signal });
metrics?.close();
await closeDb();
