import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';

/**
 * Full secrets as the gateway issues them (PostgreSQL regular expressions): API
 * keys and webhook / postback signing secrets, each prefix plus 43 base64url
 * characters (32 random bytes). A prefix, a last-four or a hash never matches.
 */
export const ISSUED_SECRET_PATTERNS = ['gw_(live|test)_[A-Za-z0-9_-]{43}', 'whsec_[A-Za-z0-9_-]{43}'];

export interface SecretHit {
  table: string;
  column: string;
  rows: number;
}

/** Every column that can hold text: text, varchar, char, json, jsonb and arrays of them, in every table of `public`. */
async function textColumns(db: Db) {
  return rowsOf<{ table: string; column: string }>(
    await db.execute(sql`
      select c.table_name as table, c.column_name as column
        from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
         and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
              or (c.data_type = 'ARRAY' and c.udt_name in ('_text', '_varchar', '_bpchar', '_json', '_jsonb')))
       order by 1, 2`),
  );
}

/**
 * Where in the database any of `needles` occurs: exact strings (`strings`,
 * e.g. the secrets a test issued) or regular expressions (`patterns`). Reads
 * every text-like column of every table as text (jsonb and arrays included).
 */
export async function findSecretsInDatabase(db: Db, needles: { strings?: string[]; patterns?: string[] }): Promise<SecretHit[]> {
  const strings = needles.strings ?? [];
  const patterns = needles.patterns ?? [];
  if (strings.length === 0 && patterns.length === 0) return [];
  const hits: SecretHit[] = [];
  for (const { table, column } of await textColumns(db)) {
    const value = sql`${sql.identifier(column)}::text`;
    const tests = [...strings.map((s) => sql`strpos(${value}, ${s}) > 0`), ...patterns.map((p) => sql`${value} ~ ${p}`)];
    const [row] = rowsOf<{ n: number | string }>(
      await db.execute(sql`select count(*) as n from ${sql.identifier(table)} where ${sql.join(tests, sql` or `)}`),
    );
    if (Number(row!.n) > 0) hits.push({ table, column, rows: Number(row!.n) });
  }
  return hits;
}
