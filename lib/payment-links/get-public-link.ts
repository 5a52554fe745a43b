import { eq } from 'drizzle-orm';
import { paymentLinks, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { linkCounts, paymentLinkView } from './view';

/** What the public page `/l/<slug>` shows: the link, its merchant's name and mode; null for an unknown slug. */
export async function getPublicLink(db: Db, slug: string) {
  const [row] = await db
    .select({ link: paymentLinks, merchant: tenants.name })
    .from(paymentLinks)
    .innerJoin(tenants, eq(tenants.id, paymentLinks.tenantId))
    .where(eq(paymentLinks.slug, slug));
  if (!row) return null;
  const counts = (await linkCounts(db, [row.link.id])).get(row.link.id)!;
  return { link: paymentLinkView(row.link, counts), merchant: row.merchant, mode: row.link.mode, slug };
}
