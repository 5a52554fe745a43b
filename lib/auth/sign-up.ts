import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { createTenant } from '@/lib/tenants/create-tenant';
import { createUser } from '@/lib/users/create-user';
import { hashPassword } from '@/lib/users/password';
import { SignUpInput } from './schemas';
import { takeAttempt } from './throttle';

/**
 * Dashboard sign-up: a new tenant (with its admin keys, never shown) and its
 * owner. Counted per client address before any work (SIGNUP_ADDRESS_LIMIT per
 * hour, then slowed): a flood from one address costs a statement each, not
 * an argon2 hash and a tenant.
 */
export async function signUp(db: Db, input: z.input<typeof SignUpInput>, meta: { ip: string }) {
  if (!env().SIGNUP_ENABLED) throw new ApiError('forbidden', 'Sign-up is turned off on this gateway. Ask an owner for an invitation.');
  const parsed = SignUpInput.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new ApiError('validation_failed', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
  }
  const { businessName, email, password } = parsed.data;
  const verdict = await takeAttempt(db, [{ key: `signup:${meta.ip}`, limit: env().SIGNUP_ADDRESS_LIMIT }], { windowMs: 3_600_000 });
  if (!verdict.allowed) throw new ApiError('rate_limited', `Too many sign-ups from your address. Try again in ${verdict.retryAfterSeconds} seconds.`);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing)
    throw new ApiError('conflict', 'An account with this email already exists. Sign in instead.', [
      { path: 'email', message: 'is already registered' },
    ]);
  // Hashed before any row is written, outside a transaction: a hash refused as busy (503) or failed leaves no
  // ownerless tenant behind, and no connection is held while the hash waits for a thread.
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      const { tenant } = await createTenant(tx, { name: businessName });
      const user = await createUser(tx, { email, password, role: 'owner', tenantId: tenant.id }, { passwordHash });
      return { tenant, user };
    });
  } catch (err) {
    // A concurrent sign-up with the same email won the unique index (the driver's error may be wrapped by Drizzle's).
    if (isUniqueViolation(err)) throw new ApiError('conflict', 'An account with this email already exists. Sign in instead.');
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}
