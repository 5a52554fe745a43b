import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { createTenant } from '@/lib/tenants/create-tenant';
import { createUser } from '@/lib/users/create-user';
import { SignUpInput } from './schemas';

/** Dashboard sign-up: a new tenant (with its admin keys, never shown) and its owner. */
export async function signUp(db: Db, input: z.input<typeof SignUpInput>) {
  if (!env().SIGNUP_ENABLED) throw new ApiError('forbidden', 'Sign-up is turned off on this gateway. Ask an owner for an invitation.');
  const parsed = SignUpInput.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw new ApiError('validation_failed', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
  }
  const { businessName, email, password } = parsed.data;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) throw new ApiError('conflict', 'An account with this email already exists. Sign in instead.', [{ path: 'email', message: 'is already registered' }]);
  const { tenant } = await createTenant(db, { name: businessName });
  try {
    const user = await createUser(db, { email, password, role: 'owner', tenantId: tenant.id });
    return { tenant, user };
  } catch (err) {
    // A concurrent sign-up with the same email won the unique index.
    if (String((err as { code?: string }).code) === '23505') throw new ApiError('conflict', 'An account with this email already exists. Sign in instead.');
    throw err;
  }
}
