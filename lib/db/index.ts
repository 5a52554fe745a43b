import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import * as schema from '@/db/schema';
import { env } from '@/lib/env';
import { applyMigrations } from './apply-migrations';
import { databaseReady } from './gate';

export type Schema = typeof schema;
/** A database handle or a transaction: every domain function takes one as its first argument. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

interface DbHolder {
  db: Db;
  /**
   * Handle for the per-request authentication statement (rate-limit counter,
   * last-used time). Its commits skip the WAL flush (synchronous_commit off):
   * a crash can lose a few counter increments, never money, and hot keys stop
   * serialising on fsync.
   */
  authDb: Db;
  kind: 'postgres' | 'pglite';
  close: () => Promise<void>;
  migrated?: Promise<void>;
}

// One client per process, shared by every module graph Next creates (route handlers, instrumentation).
const globalKey = Symbol.for('gateway.db');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DbHolder> };
const g = globalThis as GlobalWithDb;

type Sql = import('postgres').Sql;

/**
 * Drizzle sends every query through `unsafe(..., { prepare: false })`, which
 * makes postgres.js describe parameters in a separate round trip and re-plan
 * each time. Named prepared statements (postgres.js' own default) are 2-4x
 * faster; queries without parameters keep the simple protocol (migrations).
 */
function preparedByDefault(sql: Sql): Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return (query: string, args?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(query, args as never, args && args.length > 0 ? { ...options, prepare: true } : options);
      }
      if (prop === 'begin' || prop === 'savepoint') {
        return (...a: unknown[]) => {
          const cb = a[a.length - 1] as (tx: Sql) => unknown;
          a[a.length - 1] = (tx: Sql) => cb(preparedByDefault(tx));
          return (Reflect.get(target, prop) as (...x: unknown[]) => unknown)(...a);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * Session settings of every connection to PostgreSQL. JIT off: our statements are short OLTP ones, but on a
 * large table the planner's cost estimates pass jit_above_cost and each execution then spends hundreds of ms
 * compiling (the webhook claim over a 1.3M-row backlog: 670 ms, 9 ms without JIT), which turned a backlog
 * into a collapse of delivery (issue 20).
 */
export const SESSION = { jit: 'off' } as const;

async function open(): Promise<DbHolder> {
  const { DATABASE_URL, DATA_DIR, DB_POOL_MAX } = env();
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  if (DATABASE_URL) {
    const client = postgres(DATABASE_URL, { max: DB_POOL_MAX, onnotice: () => {}, connection: SESSION });
    const authClient = postgres(DATABASE_URL, {
      max: DB_POOL_MAX,
      onnotice: () => {},
      connection: { ...SESSION, synchronous_commit: 'off' },
    });
    const db = drizzle(preparedByDefault(client), { schema, casing: 'snake_case' }) as unknown as Db;
    const authDb = drizzle(preparedByDefault(authClient), { schema, casing: 'snake_case' }) as unknown as Db;
    return {
      db,
      authDb,
      kind: 'postgres',
      close: async () => {
        await Promise.all([client.end({ timeout: 5 }), authClient.end({ timeout: 5 })]);
      },
    };
  }
  // Embedded: one process owns the PGlite directory and serves it on a Unix socket; every process
  // (this one too, if it became the owner) talks to it with postgres.js, as to PostgreSQL.
  // One connection: PGlite is a single session anyway, and postgres.js queues behind it. Unnamed
  // statements only (prepare: false): the session is shared by every client (lib/db/embedded/server.ts).
  const { embeddedSocket } = await import('./embedded');
  const { socket, host } = await embeddedSocket(DATA_DIR);
  const client = postgres({ path: socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
  const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
  return {
    db,
    authDb: db,
    kind: 'pglite',
    close: async () => {
      await client.end({ timeout: 5 });
      await host?.close();
    },
  };
}

function holder(): Promise<DbHolder> {
  g[globalKey] ??= open();
  return g[globalKey]!;
}

export async function getDb(): Promise<Db> {
  await databaseReady();
  return (await holder()).db;
}

export async function getAuthDb(): Promise<Db> {
  await databaseReady();
  return (await holder()).authDb;
}

/** lib/boot.ts only: the database before the gate opens (./gate.ts), since the boot is what opens it. */
export async function getDbForBoot(): Promise<Db> {
  return (await holder()).db;
}

export async function dbKind(): Promise<'postgres' | 'pglite'> {
  return (await holder()).kind;
}

export async function closeDb(): Promise<void> {
  const h = g[globalKey];
  if (!h) return;
  g[globalKey] = undefined;
  await (await h).close();
}

/** Applies committed migrations from db/migrations (idempotent, safe to run from several processes at once). */
export async function migrate(): Promise<void> {
  const h = await holder();
  h.migrated ??= applyMigrations(h.db, path.resolve(process.cwd(), 'db/migrations'));
  await h.migrated;
}

/** Rows of a raw `db.execute` result, whichever driver produced it. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export { schema };
