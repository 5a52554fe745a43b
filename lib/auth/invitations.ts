import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { invitations, users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { newId } from '@/lib/ids';
import { createUser } from '@/lib/users/create-user';
import { hashPassword } from '@/lib/users/password';
import { AcceptInvitationInput, InviteMemberInput } from './schemas';
import { generateToken, sha256 } from './tokens';

const INVITE_TTL_MS = 7 * 86_400_000;

/** An owner invites a member; returns the one-time token for the link (only its hash is kept). */
export async function inviteMember(db: Db, owner: { tenantId: string; userId: string }, input: unknown) {
  const { email } = InviteMemberInput.parse(input);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) throw new ApiError('conflict', 'A user with this email already exists.', [{ path: 'email', message: 'already has an account' }]);
  const token = generateToken();
  const [row] = await db
    .insert(invitations)
    .values({
      id: newId('invitation'),
      tenantId: owner.tenantId,
      email,
      tokenHash: sha256(token),
      invitedBy: owner.userId,
      expiresAt: new Date(Date.now() + INVITE_TTL_MS),
    })
    .returning();
  return { id: row!.id, email, token, expiresAt: row!.expiresAt.toISOString() };
}

export async function listPendingInvitations(db: Db, tenantId: string) {
  return db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      createdAt: invitations.createdAt,
    })
    .from(invitations)
    .where(
      and(eq(invitations.tenantId, tenantId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, new Date())),
    )
    .orderBy(desc(invitations.createdAt));
}

export async function revokeInvitation(db: Db, where: { id: string; tenantId: string }) {
  await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, where.id), eq(invitations.tenantId, where.tenantId)));
}

/** The open invitation behind a link token, or null. */
export async function findInvitation(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.tokenHash, sha256(token)),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Creates the member with the chosen password; the link works once. */
export async function acceptInvitation(db: Db, input: z.input<typeof AcceptInvitationInput>) {
  const { token, password } = AcceptInvitationInput.parse(input);
  const inv = await findInvitation(db, token);
  if (!inv) throw new ApiError('not_found', 'This invitation link is invalid, used or expired. Ask the owner for a new one.');
  // Hashed before the transaction: it must not hold a connection while the hash waits for a thread.
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(and(eq(invitations.id, inv.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (!claimed) throw new ApiError('conflict', 'This invitation was already used.');
    return createUser(tx, { email: inv.email, password, role: inv.role, tenantId: inv.tenantId }, { passwordHash });
  });
}

export async function listTeam(db: Db, tenantId: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
      totpSecret: users.totpSecret,
    })
    .from(users)
    .where(eq(users.tenantId, tenantId))
    .orderBy(users.createdAt)
    .then((rows) => rows.map(({ totpSecret, ...r }) => ({ ...r, twoFactor: totpSecret !== null })));
}

/** Removes a member (never an owner) and, through the cascade, their sessions. */
export async function removeMember(db: Db, where: { userId: string; tenantId: string }) {
  const [u] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, where.userId), eq(users.tenantId, where.tenantId)))
    .limit(1);
  if (!u) throw new ApiError('not_found', 'Team member not found.');
  if (u.role === 'owner') throw new ApiError('invalid_state', 'The owner cannot be removed.');
  await db.delete(users).where(eq(users.id, u.id));
}
