import { and, eq, gt } from 'drizzle-orm';
import { portalSessions, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { hashPortalSecret, isPortalSecret } from './portal-token';

export interface PortalCustomer {
  tenantId: string;
  mode: Mode;
  customerEmail: string;
  merchantName: string;
  expiresAt: Date;
}

/** The customer a browser session's secret (the cookie) stands for, while it is valid; null otherwise. */
export async function portalSession(db: Db, secret: unknown, now = new Date()): Promise<PortalCustomer | null> {
  if (!isPortalSecret(secret)) return null;
  const [row] = await db
    .select({
      tenantId: portalSessions.tenantId,
      mode: portalSessions.mode,
      customerEmail: portalSessions.customerEmail,
      merchantName: tenants.name,
      expiresAt: portalSessions.sessionExpiresAt,
    })
    .from(portalSessions)
    .innerJoin(tenants, eq(tenants.id, portalSessions.tenantId))
    .where(and(eq(portalSessions.sessionSecretHash, hashPortalSecret(secret)), gt(portalSessions.sessionExpiresAt, now)));
  return row ? { ...row, expiresAt: row.expiresAt! } : null;
}
