import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { openSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import { verifyPassword } from '@/lib/users/password';
import { SignInInput } from './schemas';
import { createSession } from './sessions';
import { THROTTLE_FREE, clearFailures, lockedForSeconds, recordFailure, throttleKeys } from './throttle';
import { normalizeRecoveryCode, sha256 } from './tokens';
import { verifyTotp } from './totp';

export type SignInOutcome =
  | { ok: true; sessionId: string; userId: string; usedRecoveryCode: boolean }
  | { ok: false; reason: 'invalid' | 'totp_required' | 'no_tenant' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

// Verifies against a real hash when the email is unknown so timing does not reveal which accounts exist.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$6P+GrG2EfZjT7ZQAR6kAKkPR3fE6Hke278K+6I4vUp8';

/**
 * The whole sign-in decision, independent of next-auth: throttle check,
 * password, then TOTP or a recovery code. Success opens a session row.
 */
export async function verifyCredentials(db: Db, raw: unknown, meta: { ip: string; userAgent?: string }): Promise<SignInOutcome> {
  const parsed = SignInInput.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const { email, password, code } = parsed.data;
  const keys = throttleKeys(email, meta.ip);
  const wait = await lockedForSeconds(db, [keys.acct, keys.ip]);
  if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };

  const fail = async (): Promise<SignInOutcome> => {
    await recordFailure(db, keys.acct, THROTTLE_FREE.acct);
    await recordFailure(db, keys.ip, THROTTLE_FREE.ip);
    return { ok: false, reason: 'invalid' };
  };

  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !passwordOk) return fail();
  // Support staff belong to no tenant: they sign in to the console.
  if (!user.tenantId && user.role !== 'support') return { ok: false, reason: 'no_tenant' };

  let usedRecoveryCode = false;
  if (user.totpSecret) {
    if (!code) return { ok: false, reason: 'totp_required' };
    if (!verifyTotp(openSecret(user.totpSecret), code)) {
      const hash = sha256(normalizeRecoveryCode(code));
      if (!user.recoveryCodeHashes.includes(hash)) return fail();
      await db
        .update(users)
        .set({ recoveryCodeHashes: user.recoveryCodeHashes.filter((h) => h !== hash) })
        .where(eq(users.id, user.id));
      usedRecoveryCode = true;
    }
  }
  await clearFailures(db, keys.acct);
  const session = await createSession(db, user.id, meta);
  return { ok: true, sessionId: session.id, userId: user.id, usedRecoveryCode };
}
