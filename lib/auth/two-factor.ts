import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import { TotpCodeInput } from './schemas';
import { generateRecoveryCodes } from './tokens';
import { claimTotpCode } from './second-factor';
import { takeAttempt } from './throttle';
import { generateTotpSecret, otpauthUri, totpStep } from './totp';

async function loadUser(db: Db, userId: string) {
  const [u] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!u) throw new ApiError('not_found', 'User not found.');
  return u;
}

/** Step 1: a fresh secret, kept pending (sealed, like the confirmed one) until a code from it is confirmed. */
export async function startTotpEnrollment(db: Db, userId: string) {
  const u = await loadUser(db, userId);
  if (u.totpSecret) throw new ApiError('invalid_state', 'Two-factor sign-in is already on.');
  const secret = generateTotpSecret();
  await db
    .update(users)
    .set({ totpPendingSecret: sealSecret(secret) })
    .where(eq(users.id, userId));
  return { secret, uri: otpauthUri(secret, u.email) };
}

/** Step 2: a valid code turns 2FA on; the ten recovery codes are returned once. */
export async function confirmTotpEnrollment(db: Db, userId: string, input: unknown) {
  const { code } = TotpCodeInput.parse(input);
  const u = await loadUser(db, userId);
  if (!u.totpPendingSecret) throw new ApiError('invalid_state', 'Start the setup again: no pending authenticator.');
  const pending = openSecret(u.totpPendingSecret);
  const step = totpStep(pending, code);
  if (step === null)
    throw new ApiError('validation_failed', 'That code is not valid. Check the time on your phone and try the next code.', [
      { path: 'code', message: 'is not valid' },
    ]);
  const { codes, hashes } = generateRecoveryCodes();
  await db
    .update(users)
    .set({ totpSecret: sealSecret(pending), totpPendingSecret: null, recoveryCodeHashes: hashes, totpLastStep: step })
    .where(eq(users.id, userId));
  return { recoveryCodes: codes };
}

/**
 * Changes to 2FA are throttled per user (TWO_FACTOR_CHANGE_LIMIT per 15 minutes, then slowed like sign-in),
 * counted before the code is checked, so a stolen session cannot guess codes at speed.
 */
async function throttleChange(db: Db, userId: string) {
  const verdict = await takeAttempt(db, [{ key: `2fa:${userId}`, limit: env().TWO_FACTOR_CHANGE_LIMIT }]);
  if (!verdict.allowed) throw new ApiError('rate_limited', `Too many two-factor changes. Try again in ${verdict.retryAfterSeconds} seconds.`);
}

/** Turning 2FA off needs a current code (accepted once), so a stolen session alone cannot do it. */
export async function disableTotp(db: Db, userId: string, input: unknown) {
  const { code } = TotpCodeInput.parse(input);
  const u = await loadUser(db, userId);
  if (!u.totpSecret) return { disabled: true };
  await throttleChange(db, userId);
  if (!(await claimTotpCode(db, u, code)))
    throw new ApiError('validation_failed', 'That code is not valid.', [{ path: 'code', message: 'is not valid' }]);
  await db.update(users).set({ totpSecret: null, totpPendingSecret: null, recoveryCodeHashes: [], totpLastStep: null }).where(eq(users.id, userId));
  return { disabled: true };
}

export async function regenerateRecoveryCodes(db: Db, userId: string, input: unknown) {
  const { code } = TotpCodeInput.parse(input);
  const u = await loadUser(db, userId);
  await throttleChange(db, userId);
  if (!(await claimTotpCode(db, u, code)))
    throw new ApiError('validation_failed', 'That code is not valid.', [{ path: 'code', message: 'is not valid' }]);
  const { codes, hashes } = generateRecoveryCodes();
  await db.update(users).set({ recoveryCodeHashes: hashes }).where(eq(users.id, userId));
  return { recoveryCodes: codes };
}

export async function recoveryCodesLeft(db: Db, userId: string) {
  return (await loadUser(db, userId)).recoveryCodeHashes.length;
}
