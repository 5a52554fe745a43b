import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { argon2id } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, users } from '@/db/schema';
import { closeDb, getDb, type Db } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { HashPool, hashPool } from '@/lib/users/hash-pool';
import { hashPassword } from '@/lib/users/password';
import { signInWithGrant, issueSignInGrant } from './sign-in-grant';
import { signUp } from './sign-up';
import { totpCode } from './totp';
import { confirmTotpEnrollment, disableTotp, regenerateRecoveryCodes, startTotpEnrollment } from './two-factor';
import { lockedLocally, rememberLock } from './lock-memo';
import { signInKeys, takeAttempt } from './throttle';
import { withThrottleSlot } from './throttle-slots';
import { verifyCredentials } from './verify-credentials';

/** Abuse of sign-up, sign-in and 2FA (issue 15): races, lockouts of others, reuse, floods. */
let db: Db;
let n = 0;
const email = () => `abuse-${process.pid}-${Date.now()}-${++n}@example.com`;
const PASSWORD = 'a-long-enough-password';
const addr = () => `198.18.${++n % 250}.${Math.floor(Math.random() * 250)}`;

beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
});

async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  Object.assign(process.env, vars);
  resetEnvCache();
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(vars)) delete process.env[k];
    resetEnvCache();
  }
}

async function owner() {
  const e = email();
  const { user } = await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: addr() });
  return { e, user };
}

async function ownerWith2fa() {
  const { e, user } = await owner();
  const { secret } = await startTotpEnrollment(db, user.id);
  const { recoveryCodes } = await confirmTotpEnrollment(db, user.id, { code: totpCode(secret, Date.now() - 30_000) });
  return { e, user, secret, recoveryCodes };
}

describe('sign-in throttle', () => {
  it('a concurrent burst of 20 wrong passwords from one address gets only the pair limit (5) verified', async () => {
    const { e } = await owner();
    const from = addr();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyCredentials(db, { email: e, password: `wrong-${i}-xxxxxx` }, { ip: from })),
    );
    const verified = outcomes.filter((o) => !o.ok && o.reason === 'invalid').length;
    expect(verified).toBe(5);
    expect(outcomes.filter((o) => !o.ok && o.reason === 'throttled')).toHaveLength(15);
  });

  it('an attacker hammering an account from one address does not lock the owner out of their own address', async () => {
    const { e } = await owner();
    const attacker = addr();
    const victim = addr();
    const attack = Promise.all(
      Array.from({ length: 40 }, (_, i) => verifyCredentials(db, { email: e, password: `guess-${i}-xxxxxx` }, { ip: attacker })),
    );
    const during = await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: victim });
    await attack;
    expect(during.ok).toBe(true);
    // After the burst: the attacker's pair is locked, the owner still gets in.
    expect(await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: attacker })).toMatchObject({ ok: false, reason: 'throttled' });
    expect((await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: victim })).ok).toBe(true);
  });

  it('throttle statements hold at most a quarter of the database pool at once; the rest wait holding no connection', async () => {
    let active = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        withThrottleSlot(async () => {
          most = Math.max(most, ++active);
          await db.execute(sql`select pg_sleep(0.01), ${i}::int`);
          active--;
        }),
      ),
    );
    expect(most).toBe(Math.max(1, Math.floor(Number(process.env.DB_POOL_MAX ?? 10) / 4)));
  });

  it('a locked address is refused in-process until its lock ends, and never longer', async () => {
    const { e } = await owner();
    const from = addr();
    for (let i = 0; i < 6; i++) await verifyCredentials(db, { email: e, password: `wrong-${i}-xxxxxx` }, { ip: from });
    const k = signInKeys(e, from);
    const left = lockedLocally([k.pair.key]);
    expect(left).toBeGreaterThan(20_000);
    expect(left).toBeLessThanOrEqual(30_000);
    // The account-wide key is never decided in-process: known addresses pass its lock.
    expect(lockedLocally([k.acct.key])).toBe(0);
    rememberLock('test:key', 1_000, 0);
    expect(lockedLocally(['test:key'], 999)).toBe(1);
    expect(lockedLocally(['test:key'], 1_000)).toBe(0);
  });

  it('a distributed guess reaching the account limit shuts out unknown addresses, not the owner’s known one', async () => {
    await withEnv({ LOGIN_ACCOUNT_LIMIT: '10' }, async () => {
      const { e } = await owner();
      const home = addr();
      expect((await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: home })).ok).toBe(true);
      for (let i = 0; i < 12; i++) await verifyCredentials(db, { email: e, password: `guess-${i}-xxxxxx` }, { ip: addr() });
      expect(await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: addr() })).toMatchObject({ ok: false, reason: 'throttled' });
      expect((await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: home })).ok).toBe(true);
    });
  });
});

describe('hashing during a flood', () => {
  it('the event loop keeps running while passwords are hashed', async () => {
    await hashPassword(PASSWORD); // the thread started and its WebAssembly compiled
    let ticks = 0;
    let hashing = true;
    const spin = () => {
      ticks++;
      if (hashing) setImmediate(spin);
    };
    setImmediate(spin);
    await Promise.all(Array.from({ length: 3 }, () => hashPassword(PASSWORD)));
    hashing = false;
    // On the main thread each hash would hold the loop for its whole ~100 ms: a handful of turns at most.
    expect(ticks).toBeGreaterThan(100);
  });

  it('a sign-in from an address that signed in to the account before is checked ahead of queued hashes, even with the queue full', async () => {
    const params = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 };
    const hash = await hashPassword(PASSWORD);
    const pool = new HashPool(1, 2);
    const order: string[] = [];
    const flood = [0, 1, 2].map((i) => pool.run({ op: 'hash', password: `guess-${i}-xxxxxx`, params }).then(() => order.push(`flood ${i}`)));
    // One hashing, two waiting: the queue is full for everyone else.
    await expect(pool.run({ op: 'hash', password: PASSWORD, params })).rejects.toMatchObject({ code: 'service_unavailable' });
    const ownersCheck = pool.run({ op: 'verify', password: PASSWORD, hash }, { priority: true }).then((ok) => order.push(`owner ${ok}`));
    await Promise.all([...flood, ownersCheck]);
    expect(order).toEqual(['flood 0', 'owner true', 'flood 1', 'flood 2']);

    // Paced (one ordinary hash a second here): a flood waits its turn, the owner's check does not wait for the pace.
    const paced = new HashPool(2, 10, 0, 1);
    const seen: string[] = [];
    const slow = [0, 1, 2].map((i) => paced.run({ op: 'hash', password: `guess-${i}-xxxxxx`, params }).then(() => seen.push(`flood ${i}`)));
    await new Promise((r) => setTimeout(r, 50)); // flood 0 took the one banked start; 1 and 2 wait about a second each
    const owners = paced.run({ op: 'verify', password: PASSWORD, hash }, { priority: true }).then((ok) => seen.push(`owner ${ok}`));
    await Promise.all([...slow, owners]);
    expect(seen.indexOf('owner true')).toBeLessThan(seen.indexOf('flood 1'));
    expect(seen.slice(-2)).toEqual(['flood 1', 'flood 2']);

    // verifyCredentials asks for that lane when the throttle knows the account+address pair from a past success.
    const { e } = await owner();
    const home = addr();
    expect((await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: home })).ok).toBe(true);
    const gate = (ip: string) => {
      const k = signInKeys(e, ip);
      return takeAttempt(db, [k.acct, k.ip, k.pair], { knownPass: k.acct.key, knownBy: k.pair.key });
    };
    expect(await gate(home)).toEqual({ allowed: true, known: true });
    expect(await gate(addr())).toEqual({ allowed: true, known: false });
  });
});

describe('second factor', () => {
  it('a TOTP code is accepted once: replaying it in its window is refused', async () => {
    const { e, secret } = await ownerWith2fa();
    const code = totpCode(secret);
    expect((await verifyCredentials(db, { email: e, password: PASSWORD, code }, { ip: addr() })).ok).toBe(true);
    expect(await verifyCredentials(db, { email: e, password: PASSWORD, code }, { ip: addr() })).toEqual({ ok: false, reason: 'invalid' });
    // An older step is refused too once a newer one was used.
    expect(await verifyCredentials(db, { email: e, password: PASSWORD, code: totpCode(secret, Date.now() - 30_000) }, { ip: addr() })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('two concurrent sign-ins with one TOTP code: exactly one succeeds', async () => {
    const { e, secret } = await ownerWith2fa();
    const code = totpCode(secret);
    const outcomes = await Promise.all([addr(), addr(), addr()].map((ip) => verifyCredentials(db, { email: e, password: PASSWORD, code }, { ip })));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
  });

  it('two concurrent sign-ins with one recovery code: exactly one succeeds, and the code is gone', async () => {
    const { e, user, recoveryCodes } = await ownerWith2fa();
    const code = recoveryCodes[3]!;
    const outcomes = await Promise.all(
      [addr(), addr(), addr(), addr()].map((ip) => verifyCredentials(db, { email: e, password: PASSWORD, code }, { ip })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.recoveryCodeHashes).toHaveLength(9);
  });

  it('turning 2FA off and regenerating codes are throttled per user, counted before the code is checked', async () => {
    const { user } = await ownerWith2fa();
    const attempts = await Promise.allSettled(Array.from({ length: 8 }, () => regenerateRecoveryCodes(db, user.id, { code: '000000' })));
    const codes = attempts.map((a) => (a.status === 'rejected' ? (a.reason as { code: string }).code : 'ok'));
    expect(codes.filter((c) => c === 'validation_failed')).toHaveLength(5);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(3);
    await expect(disableTotp(db, user.id, { code: '000000' })).rejects.toMatchObject({ code: 'rate_limited' });
  });
});

describe('sign-up', () => {
  it('is limited per client address; another address still signs up', async () => {
    await withEnv({ SIGNUP_ADDRESS_LIMIT: '3' }, async () => {
      const from = addr();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => signUp(db, { businessName: 'Flood', email: email(), password: PASSWORD }, { ip: from })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual([
        'rate_limited',
        'rate_limited',
        'rate_limited',
      ]);
      await expect(signUp(db, { businessName: 'Shop', email: email(), password: PASSWORD }, { ip: addr() })).resolves.toBeTruthy();
    });
  });

  it('two concurrent sign-ups with one email: one account, the others a conflict, and no tenant left without its owner', async () => {
    const e = email();
    const businessName = `Race ${e}`;
    const results = await Promise.allSettled(
      [addr(), addr(), addr()].map((ip) => signUp(db, { businessName, email: e, password: PASSWORD }, { ip })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['conflict', 'conflict']);
    expect(await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, businessName))).toHaveLength(1);
  });

  it('hashes the password once: the sign-in after sign-up uses a grant, not a second argon2 run', async () => {
    const before = { ...hashPool().stats };
    const { user } = await owner();
    const signedIn = await signInWithGrant(db, issueSignInGrant(user.id), { ip: addr() });
    expect(signedIn.ok).toBe(true);
    expect(hashPool().stats.hashes - before.hashes).toBe(1);
    expect(hashPool().stats.verifies - before.verifies).toBe(0);
  });

  it('a forged, altered or expired grant opens nothing', async () => {
    const { user } = await owner();
    const grant = issueSignInGrant(user.id);
    const [id, exp, sig] = grant.split('.');
    expect(await signInWithGrant(db, `${id}.${Number(exp) + 1}.${sig}`, { ip: addr() })).toEqual({ ok: false, reason: 'invalid' });
    expect(await signInWithGrant(db, `${id}.${exp}.AAAA`, { ip: addr() })).toEqual({ ok: false, reason: 'invalid' });
    expect(await signInWithGrant(db, issueSignInGrant(user.id, Date.now() - 120_000), { ip: addr() })).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('password hashing pool', () => {
  it('verifies hashes made before the pool (same argon2id parameters) and refuses beyond its queue with 503, not by waiting', async () => {
    const pool = new HashPool(1, 2);
    const params = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 };
    // As the main-thread implementation this pool replaced stored them.
    const old = await argon2id({ ...params, password: PASSWORD, salt: randomBytes(16), outputType: 'encoded' });
    expect(await pool.run({ op: 'verify', password: PASSWORD, hash: old })).toBe(true);
    expect(await pool.run({ op: 'verify', password: 'not-it-at-all', hash: old })).toBe(false);
    const jobs = await Promise.allSettled(Array.from({ length: 5 }, () => pool.run({ op: 'hash', password: PASSWORD, params })));
    const made = jobs.filter((j) => j.status === 'fulfilled').map((j) => (j as PromiseFulfilledResult<string>).value);
    expect(made).toHaveLength(3);
    for (const h of made) expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(jobs.filter((j) => j.status === 'rejected').map((j) => (j as PromiseRejectedResult).reason.code)).toEqual([
      'service_unavailable',
      'service_unavailable',
    ]);
    expect(await pool.run({ op: 'verify', password: PASSWORD, hash: made[0]! })).toBe(true);
    expect(await pool.run({ op: 'verify', password: PASSWORD, hash: 'not-a-hash' })).toBe(false);
  });
});
