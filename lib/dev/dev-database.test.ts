import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedSocket } from '@/lib/db/embedded';
import { openDevDatabase } from './dev-database';

/*
 * Issue 45, the first minutes: `npm run dev` starts Next as soon as it holds the embedded database's lock, and opens
 * and migrates the database meanwhile. Next's boot, asking for the database then, must wait for this process's
 * socket (not open the directory itself), and find the migrations applied.
 */
describe('npm run dev opens its database while Next starts', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-devdb-'));
  let close: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'takes the lock before the database opens; a process asking meanwhile gets its socket; the migrations are applied',
    { timeout: 120_000 },
    async () => {
      const order: string[] = [];
      const db = openDevDatabase(dir);
      const hosted = db.host.then((h) => (order.push('hosted'), (close = h.close), h));
      await db.owned;
      order.push('owned');
      // What Next's boot does (lib/db, no DATABASE_URL): asks for the socket while the database is still opening.
      const asked = embeddedSocket(dir, { waitMs: 60_000 });
      const host = await hosted;
      const other = await asked;
      expect(order).toEqual(['owned', 'hosted']);
      expect(other).toEqual({ socket: host.socket }); // no host of its own: it waited for ours
      expect(host.socket).toBe(db.socket);

      await db.migrated;
      const sql = postgres({ path: host.socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
      try {
        const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
        expect(n).toBe(readMigrationFiles({ migrationsFolder: path.resolve('db/migrations') }).length);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  );
});
