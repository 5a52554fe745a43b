import { eq } from 'drizzle-orm';
import { portalSessions, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emailLink } from '@/lib/email/email-link';
import { enqueueEmail } from '@/lib/email/enqueue-email';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { LINK_TTL_MS, newPortalSecret, portalLink } from './portal-token';

/**
 * POST /v1/portal-sessions: a one-time portal link for a customer e-mail, valid 15 minutes; e-mailed to the customer
 * with sendEmail (in the same transaction). The same answer whether or not the e-mail has a subscription here, so the
 * call does not tell who is a customer; the portal then simply lists nothing.
 */
export async function createPortalSession(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  input: { customerEmail: string; sendEmail: boolean },
  now = new Date(),
): Promise<{ url: string; expiresAt: string }> {
  const { secret, hash } = newPortalSecret();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  const customerEmail = input.customerEmail.trim().toLowerCase();
  const url = portalLink(secret);
  await db.transaction(async (tx) => {
    const id = newId('portalSession');
    await tx.insert(portalSessions).values({ id, ...owner, customerEmail, linkTokenHash: hash, expiresAt, createdAt: now });
    if (!input.sendEmail) return;
    const [tenant] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, owner.tenantId));
    await enqueueEmail(tx, {
      ...owner,
      kind: 'portal',
      subjectId: id,
      to: customerEmail,
      data: { merchantName: tenant!.name, portalUrl: emailLink(url), expiresAt: expiresAt.toISOString() },
    });
  });
  return { url, expiresAt: expiresAt.toISOString() };
}
