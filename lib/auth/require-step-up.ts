import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { openSecret } from '@/lib/crypto/secret-box';
import { verifyTotp } from './totp';

/**
 * Dashboard step-up for sensitive actions (API keys, withdrawals, withdrawal
 * controls): when the user has 2FA on, a current TOTP code must come with the
 * request, so a stolen session cookie alone cannot move money or lift limits.
 */
export async function requireStepUp(db: Db, userId: string, code: unknown) {
  const [u] = await db.select({ totpSecret: users.totpSecret }).from(users).where(eq(users.id, userId)).limit(1);
  if (!u?.totpSecret) return;
  const given = typeof code === 'string' ? code.replace(/\s+/g, '') : '';
  if (!given)
    throw new ApiError('two_factor_required', 'Enter the 6-digit code from your authenticator app to confirm.', [
      { path: 'totpCode', message: 'is required' },
    ]);
  if (!verifyTotp(openSecret(u.totpSecret), given))
    throw new ApiError('validation_failed', 'That code is not valid.', [{ path: 'totpCode', message: 'is not valid' }]);
}
