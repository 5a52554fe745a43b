import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import * as schema from '@/db/schema';
import { applyMigrations } from '@/lib/db/apply-migrations';
import type { Db } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { seedDemoTenant } from './seed';

// Two `npm run dev` on one fresh database boot two Next processes, and each seeds the demo tenant
// on its first start: they must not make two demo tenants, nor die on the demo user's unique email.
describe('seedDemoTenant from several processes at once', () => {
  const name = `gw_seed_${Date.now()}_${process.pid}`;
  const adminUrl = new URL(process.env.DATABASE_URL!);
  const freshUrl = new URL(adminUrl);
  freshUrl.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-seed-'));
  const clients: postgres.Sql[] = [];
  const previousDataDir = process.env.DATA_DIR;

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
    process.env.DATA_DIR = previousDataDir;
    if (previousDataDir === undefined) delete process.env.DATA_DIR;
    resetEnvCache();
  });

  it('seeds one demo tenant, one owner and one support user', async () => {
    await admin.unsafe(`create database ${name}`);
    process.env.DATA_DIR = dataDir;
    resetEnvCache();
    // One connection pool per "process", as each Next process has its own.
    const dbs = Array.from({ length: 4 }, () => {
      const c = postgres(freshUrl.toString(), { max: 2, onnotice: () => {} });
      clients.push(c);
      return drizzle(c, { schema, casing: 'snake_case' }) as unknown as Db;
    });
    await applyMigrations(dbs[0]!, path.resolve('db/migrations'));

    const runs = await Promise.allSettled(dbs.map((db) => seedDemoTenant(db)));
    expect(runs.map((r) => (r.status === 'fulfilled' ? 'ok' : String(r.reason)))).toEqual(['ok', 'ok', 'ok', 'ok']);
    const sql = clients[0]!;
    expect(await sql`select count(*)::int as n from tenants`).toEqual([{ n: 1 }]);
    expect(await sql`select role, count(*)::int as n from users group by role order by role`).toEqual([
      { role: 'owner', n: 1 },
      { role: 'support', n: 1 },
    ]);
    expect(existsSync(path.join(dataDir, 'demo-credentials.json'))).toBe(true);

    // A later start finds the tenant and seeds nothing more.
    await seedDemoTenant(dbs[1]!);
    expect(await sql`select count(*)::int as n from tenants`).toEqual([{ n: 1 }]);
  });
});
