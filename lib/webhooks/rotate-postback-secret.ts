import { sql } from 'drizzle-orm';
import { webhookPostbackSecrets } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/tenants/mode';
import { postbackSecretView } from './postback-secret-view';
import { newWebhookSecret } from './secret';

/**
 * New postback secret, returned once (creates the first one too). As for
 * endpoints, graceHours keeps a second signature with the old secret.
 */
export async function rotatePostbackSecret(db: Db, owner: { tenantId: string; mode: Mode }, { graceHours }: { graceHours: number }, now = new Date()) {
  const secret = newWebhookSecret();
  const graceUntil = graceHours > 0 ? new Date(now.getTime() + graceHours * 3_600_000) : null;
  const [row] = await db
    .insert(webhookPostbackSecrets)
    .values({ ...owner, secret, revealedAt: now })
    .onConflictDoUpdate({
      target: [webhookPostbackSecrets.tenantId, webhookPostbackSecrets.mode],
      set: {
        secret,
        previousSecret: graceUntil ? sql`${webhookPostbackSecrets.secret}` : null,
        previousSecretExpiresAt: graceUntil,
        revealedAt: now,
        createdAt: now,
      },
    })
    .returning();
  return { ...postbackSecretView(row!, now), secret: row!.secret };
}
