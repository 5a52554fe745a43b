import { apiKeys } from '@/db/schema';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreateApiKeyInput } from './schemas';
import { KEY_PREFIX, generateKeySecret, hashKeySecret } from './secret';
import { apiKeyView } from './view';

const DAY_MS = 86_400_000;

export type CreatedApiKey = ReturnType<typeof apiKeyView> & { key: string };

/**
 * Issues a key; the secret is returned here once and only its hash is kept.
 * With an actor (a merchant's request), the audit row is written in the same transaction.
 */
export async function createApiKey(
  db: Db,
  input: { tenantId: string; mode: Mode } & Omit<CreateApiKeyInput, 'mode' | 'rateLimitRpm'> & { rateLimitRpm?: number },
  actor?: AuditActor,
): Promise<CreatedApiKey> {
  if (actor) {
    return db.transaction(async (tx) => {
      const created = await createApiKey(tx, input);
      await recordAudit(tx, actor, merchantAuditEntry({ tenantId: input.tenantId, mode: created.mode }, { action: 'api_key.created', key: created }));
      return created;
    });
  }
  const secret = generateKeySecret(input.mode);
  const now = new Date();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      tenantId: input.tenantId,
      mode: input.mode,
      name: input.name,
      keyHash: hashKeySecret(secret),
      keyPrefix: KEY_PREFIX[input.mode],
      lastFour: secret.slice(-4),
      scopes: input.scopes,
      rateLimitRpm: input.rateLimitRpm ?? 120,
      apiVersion: input.apiVersion ?? null,
      expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
    })
    .returning();
  return { ...apiKeyView(row!), key: secret };
}

/**
 * POST /v1/api-keys: a key issues keys of its own mode only. Test keys are
 * shared with CI and contractors; letting one name `live` would hand them live
 * withdrawals. The dashboard owner (session) and the operator CLI may issue
 * either mode through createApiKey directly.
 */
export function createApiKeyWithKey(
  db: Db,
  auth: { tenantId: string; mode: Mode; keyId: string },
  body: CreateApiKeyInput,
  actor?: AuditActor,
): Promise<CreatedApiKey> {
  if (body.mode !== undefined && body.mode !== auth.mode) {
    throw new ApiError('mode_mismatch', `A ${auth.mode} key cannot create ${body.mode} keys. Use a ${body.mode} key, or the dashboard.`, [
      { path: 'mode', message: `must be ${auth.mode} (the mode of the calling key) or omitted` },
    ]);
  }
  const { mode: _same, ...rest } = body;
  return createApiKey(db, { ...rest, tenantId: auth.tenantId, mode: auth.mode }, actor);
}
