import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { hostEmbedded } from './index';
import { ownerFile } from './owner-lock';

const exec = promisify(execFile);

async function run(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const r = await exec('node_modules/.bin/tsx', args, { env });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// Two processes that both opened one PGlite directory destroyed it. One owns it now; others connect.
describe('the embedded database has one owner', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-owner-'));
  const env = { ...process.env, DATA_DIR: dir, APP_ENV: 'development' } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second process that would open the directory, naming the owner; the CLI goes through the owner', async () => {
    const host = await hostEmbedded(dir);
    const sql = postgres({ path: host.socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
    try {
      await sql`create table notes (id serial primary key, body text not null)`;
      await sql`insert into notes (body) values ('kept')`;

      const opener = path.resolve('lib/db/embedded/index.ts');
      const second = await run(
        [
          '-e',
          `import(${JSON.stringify(opener)}).then((m) => m.hostEmbedded(${JSON.stringify(dir)})).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); })`,
        ],
        env,
      );
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`owned by another process (pid ${process.pid}:`);

      // The operator CLI while the owner runs: it connects to the owner's socket, migrates, writes.
      const cli = await run(['scripts/gateway.ts', 'tenant:create', '--name', 'Through the owner'], env);
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      const tenantId = JSON.parse(cli.stdout).tenantId as string;
      expect(await sql`select name from tenants where id = ${tenantId}`).toEqual([{ name: 'Through the owner' }]);
      expect(await sql`select body from notes`).toEqual([{ body: 'kept' }]);
    } finally {
      await sql.end();
      await host.close();
    }

    // Closed cleanly, the directory opens again with everything in it.
    const again = await hostEmbedded(dir);
    const sql2 = postgres({ path: again.socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
    try {
      expect(await sql2`select body from notes`).toEqual([{ body: 'kept' }]);
      expect((await sql2`select count(*)::int as n from tenants`)[0]).toEqual({ n: 1 });
    } finally {
      await sql2.end();
      await again.close();
    }
  });

  it('takes over the lock of an owner that died without releasing it', async () => {
    // A pid far above any live one on this machine stands for a killed owner.
    writeFileSync(ownerFile(dir), JSON.stringify({ pid: 2 ** 22 + 7, command: 'tsx scripts/dev.ts', startedAt: new Date().toISOString() }));
    const host = await hostEmbedded(dir);
    await host.close();
  });

  it('keeps one client inside its transaction while others wait their turn', async () => {
    const host = await hostEmbedded(dir);
    const a = postgres({ path: host.socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
    const b = postgres({ path: host.socket, username: 'postgres', database: 'postgres', max: 1, prepare: false, onnotice: () => {} });
    try {
      await a`create table if not exists counters (id int primary key, n int not null)`;
      await a`insert into counters values (1, 0) on conflict (id) do update set n = 0`;
      // Read-modify-write in transactions from two connections at once: without turns, one
      // session would run the other's statements inside its transaction and increments would be lost.
      const bump = (sql: postgres.Sql) =>
        sql.begin(async (tx) => {
          const [{ n }] = await tx`select n from counters where id = 1`;
          await new Promise((r) => setTimeout(r, 2));
          await tx`update counters set n = ${n + 1} where id = 1`;
        });
      await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? a : b)));
      expect(await a`select n from counters where id = 1`).toEqual([{ n: 40 }]);
      // Parameterised statements (Parse, Bind, Execute, Sync) from both at once: each gets its own
      // answer. Switching clients between single messages mixes one's Parse with the other's Bind.
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? a`select ${i}::int as v` : b`select ${i}::int + 1000 as v, 'b' as who`)),
      );
      expect(answers.map((r) => r[0]!.v)).toEqual(Array.from({ length: 200 }, (_, i) => (i % 2 ? i : i + 1000)));
    } finally {
      await Promise.all([a.end(), b.end()]);
      await host.close();
    }
  });
});
