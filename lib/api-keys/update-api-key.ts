import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';
import { getApiKeyOrThrow } from './get-api-key-or-throw';
import type { UpdateApiKeyInput } from './schemas';
import { apiKeyView } from './view';

export async function updateApiKey(db: Db, where: { id: string; tenantId: string; mode: Mode }, input: UpdateApiKeyInput) {
  return db.transaction(async (tx) => {
    const key = await getApiKeyOrThrow(tx, where, { forUpdate: true });
    if (key.status === 'REVOKED') throw new ApiError('invalid_state', 'A revoked key cannot be changed.');
    const [row] = await tx.update(apiKeys).set(input).where(eq(apiKeys.id, key.id)).returning();
    return apiKeyView(row!);
  });
}
