/**
 * Sign-up flood: sign-ups the way the sign-up form's server action makes them
 * (signUp: the per-address throttle, the argon2id hash, the tenant and its
 * owner; then the sign-in grant that opens the session without a second hash),
 * offered at a fixed rate however slowly they are answered. Two attacks, a row
 * each, each after its own "alone" phase:
 *
 * - one address, BENCH_ABUSE_SIGNUP_ONE_RATE (default 50) a second: the
 *   issue's finding (20/s from one address stalled every /v1 request); past
 *   SIGNUP_ADDRESS_LIMIT (10 an hour) each costs a statement, no hash;
 * - a new address for every sign-up, BENCH_ABUSE_SIGNUP_RATE (default 20) a
 *   second, which no per-address limit stops: every one is a real argon2 hash,
 *   so this measures that hashing runs off the event loop (lib/users/hash-pool.ts:
 *   PASSWORD_HASH_THREADS, by default one fewer than the cores, at
 *   PASSWORD_HASH_NICE) and that its queue is bounded (past PASSWORD_HASH_QUEUE,
 *   64, a sign-up is a 503 at once).
 *
 * Victim: another tenant's /v1 requests (GET /v1/tenants/me and GET
 * /v1/invoices in turn), in the same process as the sign-ups. In-process, no port.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { leadIn, offered, p99, summary, victim, type VictimRun } from './victim';

const REQUESTS = Number(process.env.BENCH_ABUSE_REQUESTS ?? 150);
const ONE_RATE = Number(process.env.BENCH_ABUSE_SIGNUP_ONE_RATE ?? 50);
const RATE = Number(process.env.BENCH_ABUSE_SIGNUP_RATE ?? 20);
const PASSWORD = 'a-long-enough-password';

export default async function run(): Promise<AbuseRow[]> {
  return withBenchDatabase(async () => {
    const { call } = await import('@/lib/testing/app');
    const { createTestTenant } = await import('@/lib/testing/fixtures');
    const { signUp } = await import('@/lib/auth/sign-up');
    const { issueSignInGrant, signInWithGrant } = await import('@/lib/auth/sign-in-grant');
    const { ApiError } = await import('@/lib/api/errors');
    const { hashPool } = await import('@/lib/users/hash-pool');
    const { rowsOf } = await import('@/lib/db');

    const b = await createTestTenant({ name: 'Victim' });
    await b.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${b.tenant.id}`);
    let n = 0;
    // What signUpFormAction does, minus next-auth's cookie: sign up, then sign in with the grant.
    const signUpFrom = async (ip: string) => {
      try {
        const { user } = await signUp(b.db, { businessName: 'Flood', email: `flood-${process.pid}-${++n}@example.com`, password: PASSWORD }, { ip });
        const signedIn = await signInWithGrant(b.db, issueSignInGrant(user.id), { ip });
        return signedIn.ok ? 'created' : `grant ${signedIn.reason}`;
      } catch (e) {
        if (e instanceof ApiError) return e.code;
        throw e;
      }
    };
    const victimOp = async (i: number) => {
      const res = await call('GET', i % 2 ? '/v1/invoices?limit=10' : '/v1/tenants/me', { key: b.test });
      return res.status === 200 ? null : `${res.status} ${res.body?.code}`;
    };
    const orphanTenants = async () =>
      Number(
        rowsOf<{ n: string }>(
          await b.db.execute(sql`select count(*) as n from tenants t where not exists (select 1 from users u where u.tenant_id = t.id)`),
        )[0]!.n,
      );
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const timed = async (measure: () => Promise<VictimRun>) => {
      lag.reset();
      const t0 = performance.now();
      const r = await measure();
      return { ...r, seconds: (performance.now() - t0) / 1000, lagP99: Math.round(lag.percentile(99) / 1e6) };
    };

    // Warm-up: routes compiled, the hashing thread started and its WebAssembly compiled.
    await signUpFrom('192.0.2.1');
    for (let i = 0; i < 10; i++) await victimOp(i);
    const orphansBefore = await orphanTenants();

    const attack = async (label: string, rate: number, address: (i: number) => string): Promise<AbuseRow> => {
      const alone = await timed(() => victim(REQUESTS, 20, victimOp));
      const hashesBefore = hashPool().stats.hashes;
      const flood = offered(rate, (i) => signUpFrom(address(i)));
      // The first second apart, as in the other scenarios: an address's allowed sign-ups all land in it.
      const first = await leadIn(() => victimOp(0));
      const under = await timed(() => victim(REQUESTS, 20, victimOp));
      const sent = flood.started();
      const outcomes = await flood.stop();
      return {
        scenario: `signup-flood (${label})`,
        victimAloneP99Ms: p99(alone.latencies),
        victimAttackP99Ms: p99(under.latencies),
        victimRequests: alone.latencies.length + under.latencies.length,
        victimRefused: alone.refused + under.refused,
        note:
          `${sent} sign-ups in ${under.seconds.toFixed(1)} s (${(sent / under.seconds).toFixed(0)}/s): ${summary(outcomes)}; ` +
          `argon2 hashes: ${hashPool().stats.hashes - hashesBefore}; first victim request ${first} ms; event-loop delay p99 ${alone.lagP99} → ${under.lagP99} ms` +
          `${under.firstRefusal ? `; victim refused: ${under.firstRefusal}` : ''}`,
      };
    };
    const rows = [
      await attack('one address', ONE_RATE, () => '203.0.113.66'),
      await attack('new address each', RATE, (i) => `100.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`),
    ];
    lag.disable();
    // A sign-up refused as busy must leave nothing behind.
    const orphans = (await orphanTenants()) - orphansBefore;
    rows[1]!.note += `; tenants left without an owner: ${orphans}`;
    return rows;
  });
}
