/**
 * In-process cost of POST /v1/invoices (no HTTP, no Next router), 50
 * concurrent callers on one tenant, deposit addresses pre-derived as the
 * worker keeps them. Node CPU per request is the figure to compare between
 * versions (less sensitive to a busy machine than req/s). Under `--cpu-prof`:
 *   npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile-invoices.ts
 */
import { POST } from '@/app/v1/invoices/route';
import { getNetwork } from '@/lib/chain/network';
import { refillAddressPool } from '@/lib/chain/refill-address-pool';
import { benchKey } from './api';
import { withBenchDatabase } from './lib/harness';

const N = Number(process.env.BENCH_N ?? 3000);

await withBenchDatabase(async () => {
  const t = await benchKey();
  await refillAddressPool(t.db, getNetwork('test', 'BSC').depositMnemonic!, { target: N + 600 });
  const ctx = { params: Promise.resolve({}) };
  const call = () =>
    POST(
      new Request('http://127.0.0.1/v1/invoices', {
        method: 'POST',
        body: '{"amount":"12.50"}',
        headers: { authorization: `Bearer ${t.test}`, 'content-type': 'application/json' },
      }),
      ctx,
    );
  for (let i = 0; i < 500; i++) await call();
  let i = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (i++ < N) {
        const r = await call();
        if (r.status !== 201) throw new Error(await r.text());
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `POST /v1/invoices in-process: ${(N / (wall / 1000)).toFixed(0)} req/s at 50 concurrent, node CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms/req`,
  );
});
process.exit(0);
