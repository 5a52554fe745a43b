/**
 * Login race and lockout attempt, against the sign-in decision next-auth's
 * Credentials provider calls (verifyCredentials: the attempt counted first,
 * then the argon2 verification on the hashing threads), with the production
 * limits (LOGIN_PAIR_LIMIT 5 per account and address, LOGIN_ADDRESS_LIMIT 30
 * per address, LOGIN_ACCOUNT_LIMIT 100 per account, per 15 minutes).
 *
 * - Race: BENCH_ABUSE_RACE (default 50) wrong passwords for one account from
 *   one address, all at once. The figure is how many password verifications
 *   ran: at most the pair limit, however concurrent the burst.
 * - Lockout attempt on the victim owner's account: wrong passwords from the
 *   attacker's address (20 a second) and, to reach the account-wide limit,
 *   from a new address each time (20 a second). Once the account-wide limit
 *   refuses unknown addresses, the owner signs in from their usual address
 *   with the right password, which must succeed; the right password from the
 *   attacker's address and from a never-seen address are refused (pair lock,
 *   account lock).
 *
 * Victim p99: the owner's tenant's /v1 requests (GET /v1/tenants/me and GET
 * /v1/invoices in turn) alone and during both attacks; the owner's sign-in
 * counts as one more victim request. In-process, no port.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { offered, p99, summary, victim } from './victim';

const REQUESTS = Number(process.env.BENCH_ABUSE_REQUESTS ?? 300);
const RACE = Number(process.env.BENCH_ABUSE_RACE ?? 50);
const RATE = Number(process.env.BENCH_ABUSE_LOGIN_RATE ?? 20);
const PASSWORD = 'the-owners-real-password';
const HOME = '198.51.100.10';
const ATTACKER = '203.0.113.66';

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { call } = await import('@/lib/testing/app');
    const { createTestKey } = await import('@/lib/testing/fixtures');
    const { signUp } = await import('@/lib/auth/sign-up');
    const { verifyCredentials } = await import('@/lib/auth/verify-credentials');
    const { ApiError } = await import('@/lib/api/errors');
    const { env } = await import('@/lib/env');
    const { getDb } = await import('@/lib/db');
    const { hashPool } = await import('@/lib/users/hash-pool');
    const db = await getDb();
    const limits = { pair: env().LOGIN_PAIR_LIMIT, account: env().LOGIN_ACCOUNT_LIMIT };

    const owner = `owner-${process.pid}@example.com`;
    const raced = `raced-${process.pid}@example.com`;
    const { tenant } = await signUp(db, { businessName: 'Victim', email: owner, password: PASSWORD }, { ip: HOME });
    await signUp(db, { businessName: 'Raced', email: raced, password: PASSWORD }, { ip: '198.51.100.11' });
    const key = (await createTestKey(db, { tenantId: tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 100_000_000 })).key;
    /** A sign-in's outcome as a label: ok, invalid, throttled, or the error code (503 when the hashing queue is full). */
    const signIn = async (email: string, password: string, ip: string) => {
      try {
        const o = await verifyCredentials(db, { email, password }, { ip });
        return o.ok ? 'ok' : o.reason;
      } catch (e) {
        if (e instanceof ApiError) return e.code;
        throw e;
      }
    };
    // The owner has signed in from home before: home is a known address for the account.
    if ((await signIn(owner, PASSWORD, HOME)) !== 'ok') throw new Error('the owner could not sign in before the attack');
    const victimOp = async (i: number) => {
      const res = await call('GET', i % 2 ? '/v1/invoices?limit=10' : '/v1/tenants/me', { key });
      return res.status === 200 ? null : `${res.status} ${res.body?.code}`;
    };
    for (let i = 0; i < 10; i++) await victimOp(i);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const alone = await victim(REQUESTS, 10, victimOp);
    const lagAlone = Math.round(lag.percentile(99) / 1e6);
    lag.reset();

    const violations: string[] = [];
    const t0 = performance.now();
    const attack = async () => {
      // (a) The race.
      const before = hashPool().stats.verifies;
      const burst = await Promise.all(Array.from({ length: RACE }, (_, i) => signIn(raced, `wrong-guess-${i}`, ATTACKER)));
      const raceVerified = hashPool().stats.verifies - before;
      if (raceVerified > limits.pair) violations.push(`race: ${raceVerified} passwords verified, limit ${limits.pair}`);
      const raceOutcomes = summary(burst.reduce<Record<string, number>>((o, l) => ({ ...o, [l]: (o[l] ?? 0) + 1 }), {}));

      // (b) The lockout attempt.
      const one = offered(RATE, (i) => signIn(owner, `wrong-guess-${i}`, ATTACKER));
      const many = offered(RATE, (i) => signIn(owner, `wrong-guess-${i}`, `100.${64 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`));
      const lockStarted = performance.now();
      while (!many.outcomes.throttled && performance.now() - lockStarted < 60_000) await new Promise((r) => setTimeout(r, 50));
      const lockedAfterS = (performance.now() - lockStarted) / 1000;
      const s0 = performance.now();
      const ownerHome = await signIn(owner, PASSWORD, HOME);
      const ownerMs = Math.round(performance.now() - s0);
      const fromAttacker = await signIn(owner, PASSWORD, ATTACKER);
      const fromUnknown = await signIn(owner, PASSWORD, '192.0.2.200');
      await new Promise((r) => setTimeout(r, 1000)); // the flood goes on a moment after
      const [oneOut, manyOut] = await Promise.all([one.stop(), many.stop()]);
      if ((oneOut.invalid ?? 0) > limits.pair) violations.push(`attacker's address: ${oneOut.invalid} passwords verified, limit ${limits.pair}`);
      if (fromAttacker === 'ok') violations.push("the right password from the attacker's address was accepted during its lock");
      return { raceVerified, raceOutcomes, oneOut, manyOut, lockedAfterS, ownerHome, ownerMs, fromAttacker, fromUnknown };
    };
    const [under, a] = await Promise.all([victim(REQUESTS, 10, victimOp), attack()]);
    const seconds = (performance.now() - t0) / 1000;
    const lagUnder = Math.round(lag.percentile(99) / 1e6);
    lag.disable();
    return {
      scenario: 'login-race',
      victimAloneP99Ms: p99(alone.latencies),
      victimAttackP99Ms: p99(under.latencies),
      victimRequests: alone.latencies.length + under.latencies.length + 1,
      victimRefused: alone.refused + under.refused + (a.ownerHome === 'ok' ? 0 : 1),
      violations,
      note:
        `race: ${RACE} wrong passwords at once from one address → ${a.raceVerified} verified (limit ${limits.pair}; ${a.raceOutcomes}); ` +
        `lockout attempt on the owner: attacker's address ${summary(a.oneOut)}; a new address each ${summary(a.manyOut)} (account limit ${limits.account} reached after ${a.lockedAfterS.toFixed(1)} s); ` +
        `owner from home: ${a.ownerHome} in ${a.ownerMs} ms; right password from the attacker's address: ${a.fromAttacker}, from an unknown address: ${a.fromUnknown}; ` +
        `attack ${seconds.toFixed(1)} s; event-loop delay p99 ${lagAlone} → ${lagUnder} ms${under.firstRefusal ? `; victim refused: ${under.firstRefusal}` : ''}`,
    };
  });
}
