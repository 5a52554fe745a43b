import { and, eq, sql } from 'drizzle-orm';
import { webhookPostbackSecrets } from '@/db/schema';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { postbackSecretView } from './postback-secret-view';
import { newWebhookSecret } from './secret';

/**
 * New postback secret, returned once (creates the first one too). As for
 * endpoints, graceHours keeps a second signature with the old secret.
 */
export async function rotatePostbackSecret(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  { graceHours }: { graceHours: number },
  now = new Date(),
) {
  const secret = newWebhookSecret();
  const sealed = sealSecret(secret);
  const graceUntil = graceHours > 0 ? new Date(now.getTime() + graceHours * 3_600_000) : null;
  return db.transaction(async (tx) => {
    // With grace the old secret is kept, re-sealed with the current key (it may be legacy plaintext or under the previous key).
    const [old] = graceUntil
      ? await tx
          .select({ secret: webhookPostbackSecrets.secret })
          .from(webhookPostbackSecrets)
          .where(and(eq(webhookPostbackSecrets.tenantId, owner.tenantId), eq(webhookPostbackSecrets.mode, owner.mode)))
          .for('update')
      : [];
    const [row] = await tx
      .insert(webhookPostbackSecrets)
      .values({ ...owner, secret: sealed, revealedAt: now })
      .onConflictDoUpdate({
        target: [webhookPostbackSecrets.tenantId, webhookPostbackSecrets.mode],
        set: {
          secret: sealed,
          // No row when we looked but one now (created concurrently, by new code, so already sealed): keep it as it is.
          previousSecret: graceUntil ? (old ? sealSecret(openSecret(old.secret)) : sql`${webhookPostbackSecrets.secret}`) : null,
          previousSecretExpiresAt: graceUntil,
          revealedAt: now,
          createdAt: now,
        },
      })
      .returning();
    return { ...postbackSecretView(row!, now), secret };
  });
}
