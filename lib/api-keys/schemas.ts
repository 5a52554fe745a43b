import { z } from 'zod';
import { NullableTimestamp, Timestamp } from '@/lib/api/schemas';
import { ModeSchema } from '@/lib/mode';
import { ScopeSchema } from '@/lib/api/scopes';
import { ApiVersionSchema } from '@/lib/api/versions';

const Name = z.string().trim().min(1).max(100);
const Scopes = z
  .array(ScopeSchema)
  .min(1, 'must list at least one scope')
  .max(7)
  .refine((s) => new Set(s).size === s.length, 'must not repeat a scope');
const RateLimitRpm = z.number().int().min(1).max(10_000).describe('Requests per minute for this key (1 to 10,000).');
const KeyApiVersion = ApiVersionSchema.nullable().describe(
  "The dated API version this key's requests use (a request's Gateway-Version header still wins); null: the account's version, which moves when the owner upgrades it. See docs/api.md#versions.",
);

export const CreateApiKeyBody = z.strictObject({
  name: Name,
  scopes: Scopes,
  rateLimitRpm: RateLimitRpm.default(120),
  expiresInDays: z.number().int().min(1).max(3650).optional().describe('Lifetime in days; no expiry when omitted.'),
  mode: ModeSchema.optional().describe("The calling key's mode (the default); the other mode is refused with 403 mode_mismatch."),
  apiVersion: KeyApiVersion.optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = z
  .strictObject({ name: Name.optional(), scopes: Scopes.optional(), rateLimitRpm: RateLimitRpm.optional(), apiVersion: KeyApiVersion.optional() })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of name, scopes, rateLimitRpm, apiVersion');
export type UpdateApiKeyInput = z.infer<typeof UpdateApiKeyBody>;

export const ApiKeyStatus = z.enum(['ACTIVE', 'REVOKED', 'EXPIRED']);

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    keyPrefix: z.enum(['gw_live_', 'gw_test_']),
    lastFour: z.string(),
    mode: ModeSchema,
    scopes: z.array(z.string()),
    status: ApiKeyStatus,
    rateLimitRpm: z.int().meta({ examples: [120] }),
    apiVersion: z.string().nullable().describe("The key's own API version; null: the account's (GET /v1/tenants/me apiVersion)."),
    expiresAt: NullableTimestamp,
    lastUsedAt: NullableTimestamp,
    revokedAt: NullableTimestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The full secret. Shown only in this response; store it safely.'),
}).meta({ id: 'CreatedApiKey' });

export const ApiKeyListSchema = z.object({ data: z.array(ApiKeySchema) });
