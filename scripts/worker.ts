/** The local job worker: runs lib/jobs/registry.ts on its schedules until SIGINT/SIGTERM. */
import { checkRailsAtStart } from '@/lib/chain/check-rails-at-start';
import { closeDb, getDb, migrate } from '@/lib/db';
import { env } from '@/lib/env';
import { runWorker } from '@/lib/jobs/worker';

const e = env();
if (!e.DATABASE_URL) {
  console.error('DATABASE_URL: the standalone worker needs PostgreSQL; with the embedded database the worker runs inside the web process');
  process.exit(1);
}
const db = await getDb();
if (e.APP_ENV !== 'production') await migrate();
await checkRailsAtStart({ production: e.APP_ENV === 'production' });
const controller = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => controller.abort());
await runWorker({ db, signal: controller.signal });
await closeDb();
