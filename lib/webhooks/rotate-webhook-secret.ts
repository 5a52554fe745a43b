import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { endpointView } from './endpoint-view';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';
import { newWebhookSecret } from './secret';

/**
 * New signing secret, returned once. With graceHours > 0 every delivery also
 * carries a signature made with the old secret until the grace period ends
 * (`v1=<new>,v1=<old>`); with 0 the old secret stops at once. With an actor,
 * the audit row is written in the same transaction (never the secret).
 */
export async function rotateWebhookSecret(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode },
  { graceHours }: { graceHours: number },
  actor?: AuditActor,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const ep = await getWebhookEndpointOrThrow(tx, where, { forUpdate: true });
    const grace = graceHours > 0;
    const secret = newWebhookSecret();
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secret: sealSecret(secret),
        // Re-sealed with the current key (the stored value may be legacy plaintext or under the previous key).
        previousSecret: grace ? sealSecret(openSecret(ep.secret)) : null,
        previousSecretExpiresAt: grace ? new Date(now.getTime() + graceHours * 3_600_000) : null,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, ep.id))
      .returning();
    const view = endpointView(row!, now);
    if (actor)
      await recordAudit(tx, actor, merchantAuditEntry(where, { action: 'webhook_endpoint.secret_rotated', endpoint: view, graceHours }), now);
    return { ...view, secret };
  });
}
