import type { webhookPostbackSecrets } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import { openSecret } from '@/lib/crypto/secret-box';

type Row = typeof webhookPostbackSecrets.$inferSelect;

/** Metadata of the postback secret, never the secret itself. */
export function postbackSecretView(row: Row | undefined, now = new Date()) {
  return {
    exists: row !== undefined,
    revealed: row?.revealedAt != null,
    lastFour: row ? openSecret(row.secret).slice(-4) : null,
    previousSecretExpiresAt: row?.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? isoOrNull(row.previousSecretExpiresAt) : null,
    createdAt: isoOrNull(row?.createdAt),
  };
}
