import { sql } from 'drizzle-orm';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import { rowsOf, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { newWebhookSecret } from './secret';
import type { RawRow } from '@/lib/db/raw-row';
import { webhookPostbackSecrets } from '@/db/schema';

/**
 * The secrets that sign a tenant's postBackUrl notifications now: the current
 * one, plus the previous one during a rotation's grace period. Created on
 * first use when the tenant has not asked for one yet (it can reveal it once).
 */
export async function postbackSigningSecrets(db: Db, owner: { tenantId: string; mode: Mode }, now: Date): Promise<string[]> {
  const res = await db.execute(sql`
    with ins as (
      insert into webhook_postback_secrets (tenant_id, mode, secret) values (${owner.tenantId}, ${owner.mode}, ${sealSecret(newWebhookSecret())})
      on conflict (tenant_id, mode) do nothing
      returning secret, null::text as previous_secret, null::timestamptz as previous_secret_expires_at
    )
    select secret, previous_secret, floor(extract(epoch from previous_secret_expires_at) * 1000)::bigint as prev_until from ins
    union all
    select secret, previous_secret, floor(extract(epoch from previous_secret_expires_at) * 1000)::bigint
      from webhook_postback_secrets where tenant_id = ${owner.tenantId} and mode = ${owner.mode}`);
  const row = rowsOf<RawRow<typeof webhookPostbackSecrets, { secret: string; previousSecret: string | null }> & { prev_until: string | null }>(
    res,
  )[0]!;
  const secrets = [openSecret(row.secret)];
  if (row.previous_secret && row.prev_until && Number(row.prev_until) > now.getTime()) secrets.push(openSecret(row.previous_secret));
  return secrets;
}
