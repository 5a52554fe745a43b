import { and, eq, gt, isNull } from 'drizzle-orm';
import { portalSessions } from '@/db/schema';
import type { Db } from '@/lib/db';
import { hashPortalSecret, isPortalSecret, newPortalSecret, SESSION_TTL_MS } from './portal-token';

/**
 * Opens a portal link: once, before it expires. One conditional update (not yet redeemed, not expired) marks it used
 * and stores the hash of a fresh browser-session secret, so two concurrent openings cannot both win. Returns the
 * session secret for the cookie, or null for an unknown, used or expired link.
 */
export async function redeemPortalLink(db: Db, token: unknown, now = new Date()): Promise<{ secret: string; expiresAt: Date } | null> {
  if (!isPortalSecret(token)) return null;
  const session = newPortalSecret();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const [row] = await db
    .update(portalSessions)
    .set({ redeemedAt: now, sessionSecretHash: session.hash, sessionExpiresAt: expiresAt })
    .where(and(eq(portalSessions.linkTokenHash, hashPortalSecret(token)), isNull(portalSessions.redeemedAt), gt(portalSessions.expiresAt, now)))
    .returning({ id: portalSessions.id });
  return row ? { secret: session.secret, expiresAt } : null;
}
