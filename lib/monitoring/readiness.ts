import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { getNetworks } from '@/lib/chain/network';
import { getDb, rowsOf } from '@/lib/db';
import { MODES } from '@/lib/mode';
import { readHeads } from './read-heads';

export interface Readiness {
  ready: boolean;
  database: 'ok' | 'unreachable';
  migrations: 'current' | 'behind' | 'unknown';
  /** `mode:chain` → whether its RPC answered. */
  networks: Record<string, 'ok' | 'unreachable'>;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

let expected: number | undefined;
/** The newest committed migration's timestamp (drizzle's folderMillis), read once. */
function newestMigration(): number {
  expected ??= Math.max(...readMigrationFiles({ migrationsFolder: path.resolve(process.cwd(), 'db/migrations') }).map((m) => m.folderMillis));
  return expected;
}

/**
 * Whether this instance can serve: the database answers (3 s), every committed migration is applied
 * (this build's newest one is recorded), and each enabled network's node answers its head (3 s each, in
 * parallel; TRON through its own client). Reasons are names only, never URLs or error texts.
 */
export async function readiness(): Promise<Readiness> {
  const networks = MODES.flatMap((m) => getNetworks(m)).filter((n) => n.rpcUrl);
  const [db, heads] = await Promise.all([
    withTimeout(
      (async () => {
        const d = await getDb();
        const rows = rowsOf<{ last: string | null }>(await d.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`));
        return rows[0]?.last ?? null;
      })(),
      3_000,
    ).then(
      (last) => ({ ok: true as const, last }),
      () => ({ ok: false as const, last: null }),
    ),
    readHeads(networks, 3_000),
  ]);
  const migrations = !db.ok ? 'unknown' : db.last !== null && Number(db.last) >= newestMigration() ? 'current' : 'behind';
  const net = Object.fromEntries(networks.map((n) => [`${n.mode}:${n.chain}`, heads.has(`${n.mode}:${n.chain}`) ? 'ok' : 'unreachable'] as const));
  return {
    ready: db.ok && migrations === 'current' && Object.values(net).every((v) => v === 'ok'),
    database: db.ok ? 'ok' : 'unreachable',
    migrations,
    networks: net,
  };
}
