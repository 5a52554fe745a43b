import { and, eq } from 'drizzle-orm';
import { webhookPostbackSecrets } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { postbackSecretView } from './postback-secret-view';

/** GET /v1/webhooks/postback-secret: whether a secret exists, was revealed, its last four characters. */
export async function getPostbackSecret(db: Db, owner: { tenantId: string; mode: Mode }) {
  const [row] = await db
    .select()
    .from(webhookPostbackSecrets)
    .where(and(eq(webhookPostbackSecrets.tenantId, owner.tenantId), eq(webhookPostbackSecrets.mode, owner.mode)));
  return postbackSecretView(row);
}
