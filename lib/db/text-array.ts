import { sql, type SQL } from 'drizzle-orm';

// Characters that would need quoting inside a PostgreSQL array literal.
const UNSAFE = /[,{}"\\\s]/;

/**
 * Binds a list as one `text[]` parameter (`= any(${textArray(ids)})`): one
 * placeholder whatever the length, so the statement text and its prepared plan
 * stay the same for every batch. The literal is `{a,b,c}`, which is exact only
 * for values without commas, braces, quotes, backslashes or spaces: ids and
 * hex addresses. Anything else throws rather than being split wrongly.
 */
export function textArray(values: Iterable<string>): SQL {
  const list = [...values];
  for (const v of list)
    if (UNSAFE.test(v) || v === '' || v.toLowerCase() === 'null')
      throw new Error(`textArray: ${JSON.stringify(v)} cannot be bound as an array literal element`);
  return sql`${`{${list.join(',')}}`}::text[]`;
}
