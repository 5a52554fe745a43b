import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);

// `npm run dev` with DATABASE_URL starts Next and the worker, and both migrate: on a fresh
// database one of them died on `duplicate key value violates unique constraint "pg_type_typname_nsp_index"`.
describe('migrations started several times at once', () => {
  const name = `gw_mig_${Date.now()}_${process.pid}`;
  const adminUrl = new URL(process.env.DATABASE_URL!);
  const freshUrl = new URL(adminUrl);
  freshUrl.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  afterAll(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('all succeed on one fresh database and apply each migration once', async () => {
    await admin.unsafe(`create database ${name}`);
    const env = { ...process.env, DATABASE_URL: freshUrl.toString(), APP_ENV: 'test' } as NodeJS.ProcessEnv;
    const runs = await Promise.allSettled(Array.from({ length: 3 }, () => exec('node_modules/.bin/tsx', ['scripts/migrate.ts'], { env })));
    expect(runs.map((r) => (r.status === 'fulfilled' ? 'ok' : String((r.reason as { stderr?: string }).stderr ?? r.reason)))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);

    const journal = JSON.parse(readFileSync('db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };
    const fresh = postgres(freshUrl.toString(), { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await fresh`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(n).toBe(journal.entries.length);
      expect(await fresh`select count(*)::int as n from tenants`).toEqual([{ n: 0 }]);
    } finally {
      await fresh.end();
    }
  });
});
