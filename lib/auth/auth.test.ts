import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottles, userSessions, users } from '@/db/schema';
import { closeDb, getDb, type Db } from '@/lib/db';
import { openSecret } from '@/lib/crypto/secret-box';
import { resetEnvCache } from '@/lib/env';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { acceptInvitation, inviteMember, listTeam } from './invitations';
import { getActiveSession, revokeSession } from './sessions';
import { signUp } from './sign-up';
import { base32Decode, base32Encode, generateTotpSecret, totpCode, verifyTotp } from './totp';
import { confirmTotpEnrollment, disableTotp, regenerateRecoveryCodes, startTotpEnrollment } from './two-factor';
import { verifyCredentials } from './verify-credentials';

let db: Db;
let n = 0;
const email = () => `auth-${process.pid}-${Date.now()}-${++n}@example.com`;
const PASSWORD = 'a-long-enough-password';
const ip = () => `10.0.${n}.${Math.floor(Math.random() * 250)}`;
/** A TOTP code is accepted once per 30-second step: this stands for waiting until the next step. */
const nextStep = (userId: string) => db.update(users).set({ totpLastStep: null }).where(eq(users.id, userId));

beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
});

describe('TOTP', () => {
  it('matches the RFC 6238 SHA-1 test vector', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    // RFC 6238 Appendix B: T = 59 s gives 94287082 (8 digits); 6 digits are its last six.
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(totpCode(secret, 1_111_111_109_000)).toBe('081804');
    expect(base32Decode(secret).toString()).toBe('12345678901234567890');
  });
  it('accepts one step of drift and nothing else', () => {
    const secret = base32Encode(Buffer.from('abcdefghijabcdefghij'));
    const now = 1_700_000_000_000;
    expect(verifyTotp(secret, totpCode(secret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totpCode(secret, now - 90_000), now)).toBe(false);
    expect(verifyTotp(secret, 'abcdef', now)).toBe(false);
  });
});

describe('sign-up and sign-in', () => {
  it('sign-up creates a tenant and its owner; a second sign-up with the email is refused', async () => {
    const e = email();
    const { tenant, user } = await signUp(db, { businessName: 'Shop', email: e.toUpperCase(), password: PASSWORD }, { ip: ip() });
    expect(user).toMatchObject({ email: e, role: 'owner', tenantId: tenant.id });
    await expect(signUp(db, { businessName: 'Other', email: e, password: PASSWORD }, { ip: ip() })).rejects.toMatchObject({ code: 'conflict' });
    await expect(signUp(db, { businessName: '', email: email(), password: 'short' }, { ip: ip() })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('sign-up can be turned off', async () => {
    process.env.SIGNUP_ENABLED = 'false';
    resetEnvCache();
    try {
      await expect(signUp(db, { businessName: 'Shop', email: email(), password: PASSWORD }, { ip: ip() })).rejects.toMatchObject({
        code: 'forbidden',
      });
    } finally {
      delete process.env.SIGNUP_ENABLED;
      resetEnvCache();
    }
  });

  it('opens a session on the right password and refuses a wrong one', async () => {
    const e = email();
    await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    expect(await verifyCredentials(db, { email: e, password: 'nope-nope-nope' }, { ip: ip() })).toEqual({ ok: false, reason: 'invalid' });
    const ok = await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: ip() });
    expect(ok.ok).toBe(true);
    const sid = (ok as { sessionId: string }).sessionId;
    expect((await getActiveSession(db, sid))?.user.email).toBe(e);
    await revokeSession(db, sid);
    expect(await getActiveSession(db, sid)).toBeNull();
  });

  it('sessions expire', async () => {
    const e = email();
    await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    const ok = (await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: ip() })) as { sessionId: string };
    await db
      .update(userSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userSessions.id, ok.sessionId));
    expect(await getActiveSession(db, ok.sessionId)).toBeNull();
  });

  it('slows brute force per account and address: locked after 5 attempts, even for the right password', async () => {
    const e = email();
    const from = ip();
    await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    for (let i = 0; i < 6; i++) expect((await verifyCredentials(db, { email: e, password: `wrong-${i}-xxxxx` }, { ip: from })).ok).toBe(false);
    const locked = await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: from });
    expect(locked).toMatchObject({ ok: false, reason: 'throttled' });
    expect((locked as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(20);
  });

  it('slows brute force per IP across accounts', async () => {
    const addr = `203.0.113.${Math.floor(Math.random() * 250)}`;
    await db.delete(loginThrottles).where(eq(loginThrottles.key, `ip:${addr}`));
    for (let i = 0; i < 31; i++) await verifyCredentials(db, { email: email(), password: 'whatever-wrong' }, { ip: addr });
    const e = email();
    await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    expect(await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: addr })).toMatchObject({ ok: false, reason: 'throttled' });
    expect((await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: ip() })).ok).toBe(true);
  });

  it('with TOTP on: asks for a code, accepts a valid one, and each recovery code once', async () => {
    const e = email();
    const { user } = await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    const { secret } = await startTotpEnrollment(db, user.id);
    await expect(confirmTotpEnrollment(db, user.id, { code: '000000' })).rejects.toMatchObject({ code: 'validation_failed' });
    const { recoveryCodes } = await confirmTotpEnrollment(db, user.id, { code: totpCode(secret) });
    expect(recoveryCodes).toHaveLength(10);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.recoveryCodeHashes).not.toContain(recoveryCodes[0]);

    expect(await verifyCredentials(db, { email: e, password: PASSWORD }, { ip: ip() })).toEqual({ ok: false, reason: 'totp_required' });
    await nextStep(user.id);
    expect((await verifyCredentials(db, { email: e, password: PASSWORD, code: totpCode(secret) }, { ip: ip() })).ok).toBe(true);
    const viaRecovery = await verifyCredentials(db, { email: e, password: PASSWORD, code: recoveryCodes[0]!.toUpperCase() }, { ip: ip() });
    expect(viaRecovery).toMatchObject({ ok: true, usedRecoveryCode: true });
    expect(await verifyCredentials(db, { email: e, password: PASSWORD, code: recoveryCodes[0]! }, { ip: ip() })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });
});

describe('TOTP secrets at rest', () => {
  const stored = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]!;

  it('are stored sealed while pending and once confirmed, and sign-in and turning 2FA off still work', async () => {
    const e = email();
    const { user } = await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    const { secret, uri } = await startTotpEnrollment(db, user.id);
    expect(uri).toContain(`secret=${secret}`);
    const pending = await stored(user.id);
    expect(pending.totpPendingSecret).toMatch(/^enc:v1:/);
    expect(pending.totpPendingSecret).not.toContain(secret);
    expect(openSecret(pending.totpPendingSecret!)).toBe(secret);

    await confirmTotpEnrollment(db, user.id, { code: totpCode(secret) });
    const on = await stored(user.id);
    expect(on.totpPendingSecret).toBeNull();
    expect(on.totpSecret).toMatch(/^enc:v1:/);
    expect(on.totpSecret).not.toContain(secret);
    expect(openSecret(on.totpSecret!)).toBe(secret);

    await nextStep(user.id);
    expect((await verifyCredentials(db, { email: e, password: PASSWORD, code: totpCode(secret) }, { ip: ip() })).ok).toBe(true);
    await nextStep(user.id);
    expect((await regenerateRecoveryCodes(db, user.id, { code: totpCode(secret) })).recoveryCodes).toHaveLength(10);
    await expect(disableTotp(db, user.id, { code: '000000' })).rejects.toMatchObject({ code: 'validation_failed' });
    await nextStep(user.id);
    await disableTotp(db, user.id, { code: totpCode(secret) });
    expect((await stored(user.id)).totpSecret).toBeNull();
  });

  it('a secret stored in clear before encryption at rest still verifies', async () => {
    const e = email();
    const { user } = await signUp(db, { businessName: 'Shop', email: e, password: PASSWORD }, { ip: ip() });
    const secret = generateTotpSecret();
    await db.update(users).set({ totpSecret: secret }).where(eq(users.id, user.id));
    expect(await verifyCredentials(db, { email: e, password: PASSWORD, code: '000000' }, { ip: ip() })).toMatchObject({ ok: false });
    expect((await verifyCredentials(db, { email: e, password: PASSWORD, code: totpCode(secret) }, { ip: ip() })).ok).toBe(true);
    await nextStep(user.id);
    await disableTotp(db, user.id, { code: totpCode(secret) });
    expect((await stored(user.id)).totpSecret).toBeNull();
  });
});

describe('invitations', () => {
  it('an owner invites a member who joins once with a password; members of other tenants are not listed', async () => {
    const t = await createTestTenant();
    const owner = await createUser(db, { email: email(), password: PASSWORD, role: 'owner', tenantId: t.tenant.id });
    const inv = await inviteMember(db, { tenantId: t.tenant.id, userId: owner.id }, { email: email() });
    const member = await acceptInvitation(db, { token: inv.token, password: PASSWORD });
    expect(member).toMatchObject({ role: 'member', tenantId: t.tenant.id });
    await expect(acceptInvitation(db, { token: inv.token, password: PASSWORD })).rejects.toMatchObject({ code: 'not_found' });
    const team = await listTeam(db, t.tenant.id);
    expect(team.map((m) => m.role).sort()).toEqual(['member', 'owner']);
    expect(team.every((m) => !('totpSecret' in m))).toBe(true);
  });
});
