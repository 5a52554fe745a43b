import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { DevProcess } from '@/lib/testing/dev-process';
import { freePort } from '@/lib/testing/anvil';
import { cloneCheckout, discardInBackground } from '@/lib/testing/clone-checkout';

/**
 * `npm run dev` with DATABASE_URL starts Next and the worker, and both migrate and (in development)
 * seed the demo tenant: on a fresh database one of them once died on `pg_type_typname_nsp_index`.
 * Two dev stacks started at once make four processes racing on one fresh database.
 *
 * Next allows one dev server per project directory (its .next/dev lock), so each stack runs
 * from a clone of this checkout, as two developers' clones sharing a database would.
 */
describe('two npm run dev at once on one fresh PostgreSQL database', () => {
  const name = `gw_devtwice_${Date.now()}_${process.pid}`;
  const adminUrl = new URL(process.env.DATABASE_URL!);
  const freshUrl = new URL(adminUrl);
  freshUrl.pathname = `/${name}`;
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  const tmp = mkdtempSync(path.join(tmpdir(), 'gw-devtwice-'));
  const stacks: DevProcess[] = [];

  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.kill()));
    discardInBackground(tmp);
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('both come up, migrate once between them, and stop cleanly', { timeout: 420_000 }, async () => {
    await admin.unsafe(`create database ${name}`);
    const clones = [0, 1].map((i) => cloneCheckout(path.join(tmp, `checkout-${i}`)));

    const env = { ...process.env, DATABASE_URL: freshUrl.toString(), APP_ENV: 'development', LOG_LEVEL: 'warn' } as NodeJS.ProcessEnv;
    delete (env as Record<string, string | undefined>).NODE_ENV;
    delete env.DATA_DIR; // each clone's own .data/ (demo credentials)
    for (const [i, cwd] of clones.entries()) {
      stacks.push(new DevProcess({ cwd, env, port: await freePort(), name: `npm run dev #${i + 1}` }));
    }
    await Promise.all(stacks.map((s) => s.start()));

    // Up means booted: migrated, seeded, answering authenticated API calls from the shared database.
    const [creds] = clones
      .map((clone) => path.join(clone, '.data', 'demo-credentials.json'))
      .filter((f) => existsSync(f))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { testKey: string; tenantId: string });
    expect(creds, 'one of the stacks seeded the demo tenant').toBeDefined();
    for (const s of stacks) {
      const res = await fetch(`${s.base}/v1/tenants/me`, { headers: { authorization: `Bearer ${creds!.testKey}` } });
      expect(res.status, s.log).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(creds!.tenantId);
    }
    const db = postgres(freshUrl.toString(), { max: 1, onnotice: () => {} });
    try {
      const journal = JSON.parse(readFileSync('db/migrations/meta/_journal.json', 'utf8')) as { entries: unknown[] };
      expect(await db`select count(*)::int as n from drizzle.__drizzle_migrations`).toEqual([{ n: journal.entries.length }]);
      expect(await db`select count(*)::int as n from tenants`, 'one demo tenant, not one per process').toEqual([{ n: 1 }]);
    } finally {
      await db.end();
    }
    // Still up: neither Next nor either worker died after answering (dev.ts would stop with it).
    for (const s of stacks) expect(s.running, s.log).toBe(true);

    expect(await Promise.all(stacks.map((s) => s.stop()))).toEqual([0, 0]);
    for (const s of stacks) expect(s.log).not.toMatch(/pg_type_typname_nsp_index|duplicate key|exited \(/);
  });
});
