/**
 * In-process cost of POST /v1/withdrawals (no HTTP, no Next router), 50
 * concurrent callers spread over 100 funded tenants. Run under
 * `node --cpu-prof` to see where the gateway's own CPU goes:
 *   npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile-withdrawals.ts
 */
import { sql } from 'drizzle-orm';
import { POST } from '@/app/v1/withdrawals/route';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withBenchDatabase } from './lib/harness';

const BODY = JSON.stringify({ amount: '0.01', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' });

await withBenchDatabase(async () => {
  const keys: string[] = [];
  for (let i = 0; i < 100; i++) {
    const t = await createTestTenant({ name: `Profile wd ${i}` });
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
  const ctx = { params: Promise.resolve({}) };
  let k = 0;
  const call = () =>
    POST(
      new Request('http://127.0.0.1/v1/withdrawals', {
        method: 'POST',
        body: BODY,
        headers: { authorization: `Bearer ${keys[k++ % keys.length]}`, 'content-type': 'application/json' },
      }),
      ctx,
    );
  for (let i = 0; i < 500; i++) await call();
  const n = 5000;
  let i = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (i++ < n) {
        const r = await call();
        if (r.status !== 201) throw new Error(await r.text());
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `POST /v1/withdrawals in-process: ${(n / (wall / 1000)).toFixed(0)} req/s at 50 concurrent, node CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/req`,
  );
});
process.exit(0);
