import path from 'node:path';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/postgres-js';
import * as schema from '@/db/schema';
import { SESSION, type Db } from '@/lib/db';
import { applyMigrations } from '@/lib/db/apply-migrations';

/**
 * A migrated database of its own, for a test whose subject is database-wide (PostgreSQL's table statistics,
 * a queue's partitions): on the shared test database other files' traffic changes what it measures.
 */
export async function createFreshDatabase(): Promise<{ db: Db; drop: () => Promise<void> }> {
  const name = `gw_fresh_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const adminUrl = new URL(process.env.DATABASE_URL!);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const client = postgres(url.toString(), { max: 4, onnotice: () => {}, connection: SESSION });
  const db = drizzle(client, { schema, casing: 'snake_case' }) as unknown as Db;
  await applyMigrations(db, path.resolve(process.cwd(), 'db/migrations'));
  return {
    db,
    drop: async () => {
      await client.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
