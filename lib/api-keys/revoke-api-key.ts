import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getApiKeyOrThrow } from './get-api-key-or-throw';
import { apiKeyView } from './view';

/**
 * Revokes at once: authentication reads the row on every request. Revoking
 * twice is a no-op. With an actor, the audit row is written in the same
 * transaction (and only when the key was actually revoked).
 */
export async function revokeApiKey(db: Db, where: { id: string; tenantId: string; mode: Mode }, actor?: AuditActor) {
  return db.transaction(async (tx) => {
    const key = await getApiKeyOrThrow(tx, where, { forUpdate: true });
    if (key.status === 'REVOKED') return apiKeyView(key);
    const [row] = await tx.update(apiKeys).set({ status: 'REVOKED', revokedAt: new Date() }).where(eq(apiKeys.id, key.id)).returning();
    const view = apiKeyView(row!);
    if (actor) await recordAudit(tx, actor, merchantAuditEntry(where, { action: 'api_key.revoked', key: { ...view, mode: where.mode } }));
    return view;
  });
}
