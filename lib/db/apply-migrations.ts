import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { rowsOf, type Db } from './index';

/**
 * drizzle's migrator, serialised: two processes starting at once on a fresh database (Next and
 * the worker of `npm run dev`) both created drizzle's bookkeeping table and the same types, and
 * one died on `pg_type_typname_nsp_index`. Here everything, the bookkeeping table included, runs
 * in one transaction behind a transaction-scoped advisory lock: the second process waits, then
 * finds the migrations applied. Same table and rows as drizzle's own migrator
 * (drizzle.__drizzle_migrations), so existing databases carry on.
 */
export async function applyMigrations(db: Db, migrationsFolder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('usdt-gateway:migrations'))`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const rows = rowsOf<{ created_at: string | number }>(
      await tx.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`),
    );
    const last = rows[0] ? Number(rows[0].created_at) : -Infinity;
    for (const m of migrations) {
      if (m.folderMillis <= last) continue;
      for (const statement of m.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`);
    }
  });
}
