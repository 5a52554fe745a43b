/**
 * CPU profile of the production server (`next start` under `node --cpu-prof`)
 * while 50 connections POST /v1/withdrawals across 100 funded tenants
 * (PROFILE=trivial: GET /api/health instead; PROFILE=invalid: a body refused
 * with 400 after authentication, so no transaction; PROFILE=tenants-me: GET /v1/tenants/me,
 * the issue-20 tail). GC pauses are traced to PROF_DIR/gc.log. The profile is written when the
 * server exits:
 *   PROF_DIR=/tmp/prof npx tsx bench/profile-server.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ensureBuild, stopServer, withBenchDatabase } from './lib/harness';
import { load } from './lib/load';

const BODY = JSON.stringify({
  amount: process.env.PROFILE === 'invalid' ? '-1' : '0.01',
  destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
});
const PORT = 3299;
const profDir = process.env.PROF_DIR ?? '/tmp/prof';
mkdirSync(profDir, { recursive: true });

ensureBuild();
await withBenchDatabase(async (databaseUrl) => {
  const keys: string[] = [];
  for (let i = 0; i < 100; i++) {
    const t = await createTestTenant({ name: `Profile ${i}` });
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: '1000000',
        kind: 'test_credit',
        referenceType: 'bench',
        referenceId: `bench-${t.tenant.id}`,
        currency: 'USDT',
      }),
    );
    await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
    keys.push(t.test);
  }
  // --cpu-prof is refused in NODE_OPTIONS, so the server is started with node directly.
  const child = spawn(
    'node',
    ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--trace-gc', 'node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(PORT)],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, APP_ENV: 'test', WORKER_INLINE: 'false', LOG_LEVEL: 'warn', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', openSync(`${profDir}/gc.log`, 'w'), 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${PORT}`;
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 250));
  }
  let k = 0;
  const r =
    process.env.PROFILE === 'trivial'
      ? await load({ url: `${url}/api/health` })
      : process.env.PROFILE === 'tenants-me'
        ? await load({ url: `${url}/v1/tenants/me`, headers: { authorization: `Bearer ${keys[0]}` } })
        : await load({
            url: `${url}/v1/withdrawals`,
            method: 'POST',
            body: BODY,
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[k++ % keys.length]}` } }),
          });
  console.log(`${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}; profile in ${profDir}`);
  await stopServer(child);
});
process.exit(0);
