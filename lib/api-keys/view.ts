import type { apiKeys } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import type { ApiKeyView } from './schemas';

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function apiKeyView(row: ApiKeyRow, now = new Date()): ApiKeyView {
  const expired = row.status === 'ACTIVE' && row.expiresAt !== null && row.expiresAt <= now;
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.keyPrefix as ApiKeyView['keyPrefix'],
    lastFour: row.lastFour,
    mode: row.mode,
    scopes: row.scopes,
    status: expired ? 'EXPIRED' : row.status,
    rateLimitRpm: row.rateLimitRpm,
    apiVersion: row.apiVersion,
    expiresAt: isoOrNull(row.expiresAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    revokedAt: isoOrNull(row.revokedAt),
    createdAt: row.createdAt.toISOString(),
  };
}
