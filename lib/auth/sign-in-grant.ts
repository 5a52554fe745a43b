import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { createSession } from './sessions';
import type { SignInOutcome } from './verify-credentials';

// Outside production only: lets `next start` in tests and dev run without configuring a secret.
const DEV_AUTH_SECRET = 'development-only-auth-secret-not-for-production-use';
const GRANT_TTL_MS = 60_000;

export function authSecret(): string {
  return env().AUTH_SECRET ?? DEV_AUTH_SECRET;
}

const grantKey = () => createHash('sha256').update(`sign-in-grant:${authSecret()}`).digest();
const mac = (payload: string) => createHmac('sha256', grantKey()).update(payload).digest('base64url');

/**
 * A short-lived, signed "this user just proved their password" for the
 * sign-in that follows sign-up or accepting an invitation: the password was
 * hashed a moment ago, so verifying it again would double the argon2 work of
 * every new account. It is created and consumed inside the same server action
 * and never reaches the browser.
 */
export function issueSignInGrant(userId: string, now = Date.now()): string {
  const payload = `${userId}.${now + GRANT_TTL_MS}`;
  return `${payload}.${mac(payload)}`;
}

export async function signInWithGrant(db: Db, grant: string, meta: { ip: string; userAgent?: string }, now = Date.now()): Promise<SignInOutcome> {
  const [userId, exp, sig] = grant.split('.');
  if (!userId || !exp || !sig) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(`${userId}.${exp}`));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || Number(exp) < now) return { ok: false, reason: 'invalid' };
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  // A new account has no second factor yet; if it somehow has one, the grant is not enough.
  if (!user || user.totpSecret) return { ok: false, reason: 'invalid' };
  if (!user.tenantId) return { ok: false, reason: 'no_tenant' };
  const session = await createSession(db, user.id, meta);
  return { ok: true, sessionId: session.id, userId: user.id, usedRecoveryCode: false };
}
