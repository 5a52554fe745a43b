import path from 'node:path';
import { EmbeddedDbBusyError, hostEmbedded, socketPathFor, type EmbeddedHost } from '@/lib/db/embedded';
import type { Db } from '@/lib/db';

/**
 * Hosts DATA_DIR's embedded database for `npm run dev`, retrying while a CLI command (run with no dev stack) owns it
 * briefly; another long-running owner stops the start. `owned` is called once the lock is taken, before the
 * database opens (lib/db/embedded: others wait for this process's socket from then on).
 */
async function ownEmbedded(dataDir: string, owned: () => void): Promise<EmbeddedHost> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await hostEmbedded(dataDir, { owned });
    } catch (e) {
      if (!(e instanceof EmbeddedDbBusyError) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Applies the migrations over the socket, as the web process would (lib/db/apply-migrations.ts: idempotent, locked). */
async function migrateOver(socket: string): Promise<void> {
  const [{ default: postgres }, { drizzle }, { applyMigrations }] = await Promise.all([
    import('postgres'),
    import('drizzle-orm/postgres-js'),
    import('@/lib/db/apply-migrations'),
  ]);
  const client = postgres({ path: socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
  try {
    await applyMigrations(drizzle(client) as unknown as Db, path.resolve('db/migrations'));
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * The embedded database of `npm run dev`, opened while Next starts (issue 45: hosting it first kept Next waiting
 * 3-15 s). `owned`: the lock is taken, so Next may start (its boot waits for the socket instead of opening the
 * directory itself). `host`: serving on `socket`. `migrated`: the migrations applied from this process while Next
 * compiles its instrumentation, so the web process's boot finds them done instead of running them before its first
 * page.
 */
export function openDevDatabase(dataDir: string) {
  let owned!: () => void;
  const lock = new Promise<void>((r) => (owned = r));
  const host = ownEmbedded(dataDir, owned);
  return {
    socket: socketPathFor(path.resolve(dataDir)),
    owned: Promise.race([lock, host.then(() => undefined)]),
    host,
    migrated: host.then((h) => migrateOver(h.socket)),
  };
}
