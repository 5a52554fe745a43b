import { checkRailsAtStart } from '@/lib/chain/check-rails-at-start';
import { dbKind, getDbForBoot, migrate } from '@/lib/db';
import { gateDatabase } from '@/lib/db/gate';
import { knownExchangeWallets } from '@/lib/destinations/known-exchange-wallets';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { installPaymentHooks } from '@/lib/payment-hooks';

const bootKey = Symbol.for('gateway.booted');
type G = typeof globalThis & { [bootKey]?: Promise<void> };

/**
 * Runs once per web process: installs the payment hooks, validates the environment, applies migrations
 * outside production, seeds the demo tenant in development, checks every rail against its chain and, with the
 * embedded database, runs the job worker in-process.
 */
export function boot(): Promise<void> {
  const g = globalThis as G;
  g[bootKey] ??= (async () => {
    installPaymentHooks();
    const e = env();
    // Each entry's checksum (the env schema checks shapes only: it is read below lib/chain).
    knownExchangeWallets(e);
    const kind = await dbKind();
    if (e.APP_ENV === 'production' && kind === 'pglite') {
      throw new Error('DATABASE_URL: production needs PostgreSQL; the embedded database is for development only');
    }
    const db = await getDbForBoot();
    const t0 = performance.now();
    if (e.APP_ENV !== 'production') await migrate();
    const t1 = performance.now();
    if (e.APP_ENV === 'development') {
      const { seedDemoTenant } = await import('@/lib/dev/seed');
      await seedDemoTenant(db);
    }
    // npm run dev's start phases (issue 45), asked for with DEV_TIMINGS=1.
    if (process.env.DEV_TIMINGS === '1') {
      const s = (ms: number) => (ms / 1000).toFixed(1);
      console.log(`[boot] timings (s since Next started): migrations ${s(t0)}–${s(t1)}, demo seed ${s(t1)}–${s(performance.now())}`);
    }
    const inline = process.env.WORKER_INLINE !== undefined ? e.WORKER_INLINE : kind === 'pglite';
    const chainsUp = async () => {
      // Every enabled rail against its chain before anything can move money: production refuses to start on a mismatch.
      await checkRailsAtStart({ production: e.APP_ENV === 'production' });
      if (inline) {
        const { runWorker } = await import('@/lib/jobs/worker');
        void runWorker({ db, signal: new AbortController().signal });
      }
      log.info('gateway booted', { env: e.APP_ENV, database: kind, worker: inline ? 'inline' : 'external' });
    };
    // `npm run dev` may still be starting its chains: pages are served meanwhile, the rail check and the worker wait.
    if (process.env.DEV_CHAINS_READY_FILE && e.APP_ENV !== 'production') {
      const { localChainsReady } = await import('@/lib/dev/chains-ready');
      void localChainsReady()
        .then(chainsUp)
        .catch((err: unknown) => log.error('boot after the local chains started', { error: String(err) }));
    } else await chainsUp();
  })();
  return g[bootKey]!;
}

/**
 * What instrumentation's register() waits for before Next serves requests: the whole boot, except under `npm run dev`
 * (DEV_CHAINS_READY_FILE, never in production), where Next serves and compiles its first pages meanwhile and each
 * request's database reads wait for the boot's migrations and demo seed instead (lib/db/gate.ts; issue 45: the first
 * page's compile waited for the database to open, 3-20 s).
 */
export function bootBeforeRequests(): Promise<void> {
  const booting = boot();
  if (!process.env.DEV_CHAINS_READY_FILE || env().APP_ENV === 'production') return booting;
  gateDatabase(booting);
  booting.catch((err: unknown) => log.error('boot', { error: String(err) }));
  return Promise.resolve();
}
