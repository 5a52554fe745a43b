import { sql } from 'drizzle-orm';
import { webhookPostbackSecrets } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import type { Mode } from '@/lib/mode';
import { postbackSecretView } from './postback-secret-view';
import { newWebhookSecret } from './secret';

/**
 * Shows the postback secret once (creating it if needed). A second reveal is
 * refused: a secret that may have leaked is replaced with rotate, not re-read.
 */
export async function revealPostbackSecret(db: Db, owner: { tenantId: string; mode: Mode }, now = new Date()) {
  return db.transaction(async (tx) => {
    await tx
      .insert(webhookPostbackSecrets)
      .values({ ...owner, secret: sealSecret(newWebhookSecret()) })
      .onConflictDoNothing();
    const [row] = await tx
      .update(webhookPostbackSecrets)
      .set({ revealedAt: now })
      .where(
        sql`${webhookPostbackSecrets.tenantId} = ${owner.tenantId} and ${webhookPostbackSecrets.mode} = ${owner.mode} and ${webhookPostbackSecrets.revealedAt} is null`,
      )
      .returning();
    if (!row) throw new ApiError('invalid_state', 'The postback secret was already revealed. Rotate it to get a new one.');
    return { ...postbackSecretView(row, now), secret: openSecret(row.secret) };
  });
}
