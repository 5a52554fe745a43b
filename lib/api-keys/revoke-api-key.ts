import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/tenants/mode';
import { getApiKeyOrThrow } from './get-api-key-or-throw';
import { apiKeyView } from './view';

/** Revokes at once: authentication reads the row on every request. Revoking twice is a no-op. */
export async function revokeApiKey(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  return db.transaction(async (tx) => {
    const key = await getApiKeyOrThrow(tx, where, { forUpdate: true });
    if (key.status === 'REVOKED') return apiKeyView(key);
    const [row] = await tx
      .update(apiKeys)
      .set({ status: 'REVOKED', revokedAt: new Date() })
      .where(eq(apiKeys.id, key.id))
      .returning();
    return apiKeyView(row!);
  });
}
