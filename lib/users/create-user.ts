import { z } from 'zod';
import { users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { isStaffRole } from '@/lib/users/roles';
import { hashPassword } from './password';

export const CreateUserInput = z
  .object({
    email: z.email().transform((e) => e.toLowerCase()),
    password: z.string().min(10, 'must be at least 10 characters').max(200),
    role: z.enum(['owner', 'member', 'support', 'compliance']),
    tenantId: z.string().optional(),
  })
  .refine((u) => isStaffRole(u.role) === !u.tenantId, {
    message: 'owners and members need a tenant; support and compliance users have none',
    path: ['tenantId'],
  });

/**
 * `passwordHash`: the password's hash made beforehand, by a caller that hashes before opening a transaction
 * (a hash can wait in the pool's queue, and a transaction must not hold its connection meanwhile).
 */
export async function createUser(db: Db, input: z.input<typeof CreateUserInput>, opts: { passwordHash?: string } = {}) {
  const u = CreateUserInput.parse(input);
  if (u.tenantId) await getTenantOrThrow(db, u.tenantId);
  const passwordHash = opts.passwordHash ?? (await hashPassword(u.password));
  const [row] = await db
    .insert(users)
    .values({ id: newId('user'), email: u.email, passwordHash, role: u.role, tenantId: u.tenantId ?? null })
    .returning({ id: users.id, email: users.email, role: users.role, tenantId: users.tenantId });
  return row!;
}
