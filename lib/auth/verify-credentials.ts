import { eq } from 'drizzle-orm';
import { isStaffRole } from '@/lib/users/roles';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { verifyPassword } from '@/lib/users/password';
import { SignInInput } from './schemas';
import { createSession } from './sessions';
import { claimTotpCode, consumeRecoveryCode } from './second-factor';
import { recordSignInSuccess, signInKeys, takeAttempt } from './throttle';

export type SignInOutcome =
  | { ok: true; sessionId: string; userId: string; usedRecoveryCode: boolean }
  | { ok: false; reason: 'invalid' | 'totp_required' | 'no_tenant' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

// Verifies against a real hash when the email is unknown so timing does not reveal which accounts exist.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$6P+GrG2EfZjT7ZQAR6kAKkPR3fE6Hke278K+6I4vUp8';

/**
 * The whole sign-in decision, independent of next-auth: the attempt is counted
 * first (refused when its account+address pair, its address, or the account
 * from an unknown address is locked), then the password, then TOTP or a
 * recovery code, each accepted once. Success opens a session row.
 */
export async function verifyCredentials(db: Db, raw: unknown, meta: { ip: string; userAgent?: string }): Promise<SignInOutcome> {
  const parsed = SignInInput.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const { email, password, code } = parsed.data;
  const keys = signInKeys(email, meta.ip);
  const gate = await takeAttempt(db, [keys.acct, keys.ip, keys.pair], { knownPass: keys.acct.key, knownBy: keys.pair.key });
  if (!gate.allowed) return { ok: false, reason: 'throttled', retryAfterSeconds: gate.retryAfterSeconds };

  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  // From an address that signed in to this account before, the check goes ahead of other hashing queued by a
  // flood (guesses from many addresses would otherwise keep the owner waiting behind them).
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH, { priority: gate.known });
  if (!user || !passwordOk) return { ok: false, reason: 'invalid' };
  // Support staff belong to no tenant: they sign in to the console.
  if (!user.tenantId && !isStaffRole(user.role)) return { ok: false, reason: 'no_tenant' };

  let usedRecoveryCode = false;
  if (user.totpSecret) {
    if (!code) return { ok: false, reason: 'totp_required' };
    if (!(await claimTotpCode(db, user, code))) {
      if (!(await consumeRecoveryCode(db, user.id, code))) return { ok: false, reason: 'invalid' };
      usedRecoveryCode = true;
    }
  }
  await recordSignInSuccess(db, keys);
  const session = await createSession(db, user.id, meta);
  return { ok: true, sessionId: session.id, userId: user.id, usedRecoveryCode };
}
