import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { openSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import { normalizeRecoveryCode, sha256 } from './tokens';
import { totpStep } from './totp';

/**
 * Accepts a TOTP code once: the user's last accepted step moves forward in
 * one conditional UPDATE, so the same code (or an older one) is refused
 * afterwards, also when two requests carry it at the same moment.
 */
export async function claimTotpCode(db: Db, user: { id: string; totpSecret: string | null }, code: string, now = Date.now()): Promise<boolean> {
  if (!user.totpSecret) return false;
  const step = totpStep(openSecret(user.totpSecret), code, now);
  if (step === null) return false;
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Uses up a recovery code in one conditional UPDATE: of two concurrent sign-ins with it, exactly one gets it. */
export async function consumeRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  const hash = sha256(normalizeRecoveryCode(code));
  const rows = await db
    .update(users)
    .set({ recoveryCodeHashes: sql`array_remove(${users.recoveryCodeHashes}, ${hash}::text)` })
    .where(and(eq(users.id, userId), sql`${hash}::text = any(${users.recoveryCodeHashes})`))
    .returning({ id: users.id });
  return rows.length > 0;
}
