/**
 * In-process cost of the authenticated path (no HTTP, no Next router):
 * sequential and 50-way concurrent calls of GET /v1/tenants/me's handler.
 * Shows how much of a request the gateway's own code and its one round trip take.
 */
import { GET as me } from '@/app/v1/tenants/me/route';
import { GET as health } from '@/app/api/health/route';
import { withBenchDatabase } from './lib/harness';
import { benchKey } from './api';

await withBenchDatabase(async () => {
  const t = await benchKey();
  const ctx = { params: Promise.resolve({}) };
  const req = () => new Request('http://127.0.0.1/v1/tenants/me', { headers: { authorization: `Bearer ${t.test}` } });
  for (let i = 0; i < 500; i++) await me(req(), ctx);
  for (const [name, fn] of [
    ['health', () => health()],
    ['tenants/me', () => me(req(), ctx)],
  ] as const) {
    const n = 5000;
    let t0 = performance.now();
    for (let i = 0; i < n; i++) await (fn as () => Promise<Response> | Response)();
    const seq = (performance.now() - t0) / n;
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    let i = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (i++ < n) await (fn as () => Promise<Response> | Response)();
      }),
    );
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${name}: sequential ${seq.toFixed(3)} ms/req; 50 concurrent ${(n / (wall / 1000)).toFixed(0)} req/s, node CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms/req`,
    );
  }
});
process.exit(0);
