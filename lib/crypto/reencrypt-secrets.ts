import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { needsResealing, openSecret, sealedPrefix, sealSecret } from './secret-box';
import { secretsKeyring, type SecretsKeyring } from './secrets-keyring';

/** Every column holding a secret the gateway must read back, with the key of its table (each table has a tenant_id). */
const TARGETS = [
  { table: 'webhook_endpoints', key: ['id'], columns: ['secret', 'previous_secret'] },
  { table: 'webhook_postback_secrets', key: ['tenant_id', 'mode'], columns: ['secret', 'previous_secret'] },
  { table: 'users', key: ['id'], columns: ['totp_secret', 'totp_pending_secret'] },
] as const;

export interface ReencryptCounts {
  /** Legacy plaintext values sealed. */
  sealed: number;
  /** Values sealed with another key (SECRETS_ENCRYPTION_KEY_PREVIOUS) re-sealed with the current one. */
  resealed: number;
  /** Values changed by someone else between our read and our write (a rotation): left as they are. */
  changedMeanwhile: number;
  /** Values that could not be opened (unknown key, altered): left as they are and listed in failures. */
  failed: number;
}

export interface ReencryptReport {
  keyId: string;
  columns: Record<string, ReencryptCounts>;
  /** Where a value could not be opened: table, column, row key and why (never the value). */
  failures: { table: string; column: string; key: string[]; reason: string }[];
}

const id = (name: string) => sql.identifier(name);

/**
 * Seals every plaintext secret left from before encryption at rest and
 * re-seals values under the previous key with the current one. Idempotent
 * (values already sealed with the current key are not selected), in batches
 * walked in key order, and every row is written with a compare-and-set on the
 * value read, so a rotation running meanwhile is never overwritten.
 * `tenantId` restricts it to one tenant's rows (tests share a database).
 */
export async function reencryptSecrets(
  db: Db,
  opts: { batchSize?: number; tenantId?: string; keyring?: SecretsKeyring } = {},
): Promise<ReencryptReport> {
  const ring = opts.keyring ?? secretsKeyring();
  const batchSize = opts.batchSize ?? 500;
  const prefix = sealedPrefix(ring);
  const report: ReencryptReport = { keyId: ring.current.id, columns: {}, failures: [] };

  for (const target of TARGETS) {
    const keyCols = sql.join(target.key.map(id), sql`, `);
    for (const column of target.columns) {
      const counts: ReencryptCounts = { sealed: 0, resealed: 0, changedMeanwhile: 0, failed: 0 };
      report.columns[`${target.table}.${column}`] = counts;
      let after: string[] | null = null;
      for (;;) {
        const conditions: SQL[] = [sql`${id(column)} is not null`, sql`${id(column)} <> ''`, sql`not starts_with(${id(column)}, ${prefix})`];
        if (opts.tenantId) conditions.push(sql`tenant_id = ${opts.tenantId}`);
        if (after)
          conditions.push(
            sql`(${keyCols}) > (${sql.join(
              after.map((v) => sql`${v}`),
              sql`, `,
            )})`,
          );
        const rows = rowsOf<Record<string, string>>(
          await db.execute(sql`
            select ${sql.join(
              target.key.map((k) => sql`${id(k)}::text as ${id(`k_${k}`)}`),
              sql`, `,
            )}, ${id(column)} as value
              from ${id(target.table)}
             where ${sql.join(conditions, sql` and `)}
             order by ${keyCols}
             limit ${batchSize}`),
        );
        if (rows.length === 0) break;
        after = target.key.map((k) => rows[rows.length - 1]![`k_${k}`]!);

        const updates: { key: string[]; old: string; next: string; wasSealed: boolean }[] = [];
        for (const r of rows) {
          const key = target.key.map((k) => r[`k_${k}`]!);
          if (!needsResealing(r.value!, ring)) continue;
          try {
            updates.push({ key, old: r.value!, next: sealSecret(openSecret(r.value!, ring), ring), wasSealed: r.value!.startsWith('enc:') });
          } catch (err) {
            counts.failed++;
            report.failures.push({ table: target.table, column, key, reason: err instanceof Error ? err.message : 'could not be opened' });
          }
        }
        if (updates.length > 0) {
          const values = sql.join(
            updates.map(
              (u, i) =>
                sql`(${i}::int, ${sql.join(
                  u.key.map((k) => sql`${k}::text`),
                  sql`, `,
                )}, ${u.old}::text, ${u.next}::text)`,
            ),
            sql`, `,
          );
          const written = rowsOf<{ i: number | string }>(
            await db.execute(sql`
              update ${id(target.table)} t set ${id(column)} = v.next
                from (values ${values}) as v(i, ${sql.join(
                  target.key.map((k) => id(`k_${k}`)),
                  sql`, `,
                )}, old, next)
               where ${sql.join(
                 target.key.map((k) => sql`t.${id(k)}::text = v.${id(`k_${k}`)}`),
                 sql` and `,
               )}
                 and t.${id(column)} = v.old
              returning v.i`),
          );
          const done = new Set(written.map((w) => Number(w.i)));
          updates.forEach((u, i) => {
            if (!done.has(i)) counts.changedMeanwhile++;
            else if (u.wasSealed) counts.resealed++;
            else counts.sealed++;
          });
        }
        if (rows.length < batchSize) break;
      }
    }
  }
  return report;
}
