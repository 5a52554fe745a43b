import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rowsOf, type Db } from '@/lib/db';
import type { Operation } from '@/lib/api/operation';
import type { CallResult } from './app';

/**
 * Bad-input generators for the fuzz suite, derived from each operation's
 * OpenAPI (JSON Schema) description, with its zod schema as the oracle that
 * tells a bad input from an unusual but valid one.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

/** Tables the API writes on every authenticated request by design (rate-limit counters). */
const VOLATILE_TABLES = new Set(['rate_limit_windows']);

/** Row count of every table plus every balance: what "the database is unchanged" compares. */
export async function dbSnapshot(db: Db): Promise<Record<string, string>> {
  const tables = rowsOf<{ tablename: string }>(
    await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`),
  ).map((r) => r.tablename);
  const out: Record<string, string> = {};
  const counts = tables.filter((t) => !VOLATILE_TABLES.has(t)).map((t) => `select '${t}' as t, count(*)::text as n from "${t}"`);
  for (const r of rowsOf<{ t: string; n: string }>(await db.execute(sql.raw(counts.join(' union all '))))) out[r.t] = r.n;
  for (const r of rowsOf<{ k: string; v: string }>(
    await db.execute(sql`select tenant_id || '/' || mode || '/' || currency as k, available::text as v from balances`),
  )) {
    out[`balance:${r.k}`] = r.v;
  }
  return out;
}

/** Every answer to bad input: a 4xx in the one error shape. */
export function expectClientError(res: CallResult, context: string) {
  const msg = `${context} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, msg).toBeGreaterThanOrEqual(400);
  expect(res.status, msg).toBeLessThan(500);
  expect(res.body, msg).toMatchObject({
    statusCode: res.status,
    error: expect.any(String),
    message: expect.any(String),
    code: expect.any(String),
    requestId: expect.stringMatching(/^req_/),
  });
  expect(res.headers.get('x-request-id'), msg).toBe(res.body.requestId);
}

/** A JSON value nested `depth` levels deep, as raw text (built without recursion). */
export function deepJson(depth: number, kind: 'object' | 'array' = 'object'): string {
  return kind === 'object' ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + '1' + ']'.repeat(depth);
}

const HUGE = 'x'.repeat(200_000);

/** Strings that break naive code: unicode of every plane, controls, NUL, lookalike digits, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uFEFF100',
    '１００', // fullwidth digits
    '١٠٠', // Arabic-Indic digits
    '💸💸💸',
    '\u202Eevil',
    'Ω'.repeat(300),
    "'; drop table invoices; --",
    '${7*7}{{7*7}}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    'null',
    'true',
    '[object Object]',
    '__proto__',
    HUGE,
  ),
);

/** Numbers and numeric-looking strings: negative, zero, exponent, fractions, beyond float and bigint ranges. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, -0, 0, 0.1, 1e-7, 1.5, -1e21, 1e21, 1e308, -1e308, 2 ** 53 + 2, Number.MIN_VALUE, 2 ** 31, -(2 ** 63)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
);
export const numericString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '-1',
    '-0',
    '0',
    '0.00',
    '1e5',
    '1E-3',
    '1e400',
    '-1e400',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '0b1',
    '1_000',
    '1,5',
    ' 1',
    '1 ',
    '+1',
    '.5',
    '5.',
    '00001',
    '1.0000000000000000000000001',
    '9'.repeat(80),
    '0.' + '0'.repeat(60) + '1',
  ),
  nastyNumber.map(String),
);

/** Any JSON value, including deep and wide ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(null, true, false, [], {}, [[[]]], { a: { b: { c: {} } } }),
  fc.array(fc.constant(0), { maxLength: 2000 }),
);

/** A value of the wrong type for the given JSON Schema (or a nasty one of the right type). */
export function wrongValueFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const types = new Set([schema?.type ?? []].flat());
  for (const alt of [...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])]) for (const t of [alt.type ?? []].flat()) types.add(t);
  const arbs: fc.Arbitrary<unknown>[] = [anyJson, nastyString, nastyNumber];
  if (types.has('string')) arbs.push(numericString, nastyNumber, fc.boolean(), fc.constant(null), fc.array(nastyString, { maxLength: 3 }));
  if (types.has('number') || types.has('integer')) arbs.push(numericString, nastyNumber, fc.constant(null), fc.constantFrom('1', '10'));
  if (types.has('array')) arbs.push(fc.dictionary(fc.string(), nastyString, { maxKeys: 3 }), nastyString, fc.array(anyJson, { maxLength: 5 }));
  if (types.has('object')) arbs.push(fc.array(anyJson, { maxLength: 3 }), nastyString, fc.dictionary(nastyString, anyJson, { maxKeys: 5 }));
  if (types.has('boolean')) arbs.push(fc.constantFrom('true', 'false', 0, 1, 'yes'));
  if (schema?.enum) arbs.push(fc.constantFrom(...schema.enum.map((v) => (typeof v === 'string' ? v.toLowerCase() + ' ' : v))));
  return fc.oneof(...arbs);
}

function objectSchema(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

/** Raw JSON bodies mutated from the operation's example along its JSON Schema. */
export function badBodies(schema: JsonSchema, example: Record<string, unknown>): fc.Arbitrary<string> {
  const { properties, required } = objectSchema(schema);
  const names = Object.keys(properties);
  const base = { ...example };
  const arbs: fc.Arbitrary<string>[] = [
    // whole body of the wrong shape
    anyJson.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map((v) => JSON.stringify(v)),
    // an extra field (typos must not pass silently)
    fc
      .tuple(
        fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constantFrom('constructor', 'toString', 'id', 'tenantId', 'mode', 'status')),
        anyJson,
      )
      .filter(([k]) => !names.includes(k))
      .map(([k, v]) => JSON.stringify({ ...base, [k]: v })),
    fc.constant(`{"__proto__":{"polluted":true},${JSON.stringify(base).slice(1)}`),
    // the same key twice (JSON.parse keeps the last one)
    ...names.map((n) =>
      wrongValueFor(properties[n]).map((v) => `{${JSON.stringify(n)}:${JSON.stringify(v) ?? 'null'},${JSON.stringify(base).slice(1)}`),
    ),
  ];
  if (names.length > 0) {
    // one field of the wrong type or a nasty value of its type
    arbs.push(
      fc.constantFrom(...names).chain((n) => wrongValueFor(properties[n]).map((v) => JSON.stringify({ ...base, [n]: v }))),
      // raw numbers JSON.parse turns into Infinity or loses precision
      fc
        .tuple(fc.constantFrom(...names), fc.constantFrom('1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '1E2'))
        .map(([n, raw]) => JSON.stringify({ ...base, [n]: '__RAW__' }).replace('"__RAW__"', raw)),
    );
  }
  if (required.length > 0) {
    arbs.push(
      fc.constantFrom(...required).map((n) => {
        const copy: Record<string, unknown> = { ...base };
        delete copy[n];
        return JSON.stringify(copy);
      }),
      fc.constant('{}'),
    );
  }
  return fc.oneof(...arbs);
}

/** Unusual values that a schema may well accept: the domain code must cope without a 500. */
export function edgeBodies(schema: JsonSchema, example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(objectSchema(schema).properties);
  if (names.length === 0) return fc.constant({ ...example });
  const edge = fc.oneof(
    nastyString,
    numericString,
    nastyNumber,
    fc.dictionary(nastyString, anyJson, { maxKeys: 4 }),
    fc.constant({ deep: JSON.parse(deepJson(60)) }),
  );
  return fc.tuple(fc.constantFrom(...names), edge).map(([n, v]) => ({ ...example, [n]: v }));
}

export interface QueryParam {
  name: string;
  schema?: JsonSchema;
}

/** Query strings built from the documented parameters: wrong values, duplicates, unknown names, odd encodings. */
export function badQueries(params: QueryParam[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    numericString,
    nastyString.map((s) => s.slice(0, 5000)),
  );
  const arbs: fc.Arbitrary<string>[] = [
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 10 }), value)
      .filter(([k]) => !params.some((p) => p.name === k))
      .map(([k, v]) => new URLSearchParams([[k, v]]).toString()),
    fc.constantFrom('%', '%zz', '&&&', '=', '==1', '?', 'a=%00', 'page[]=1', 'page[a]=1', `x=${'y'.repeat(100_000)}`),
  ];
  if (params.length > 0) {
    const name = fc.constantFrom(...params.map((p) => p.name));
    arbs.push(
      fc.tuple(name, value).map(([k, v]) => new URLSearchParams([[k, v]]).toString()),
      fc.tuple(name, value, value).map(([k, v, w]) =>
        new URLSearchParams([
          [k, v],
          [k, w],
        ]).toString(),
      ),
      name.map((k) => `${encodeURIComponent(k)}=`),
    );
  }
  return fc.oneof(...arbs);
}

/** The query object the wrapper validates (a repeated parameter becomes an array), to ask the zod oracle. */
export function queryObject(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(qs)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Junk path ids: wrong prefixes, valid-looking unknown ids, unicode, huge, traversal. */
export const junkIds: fc.Arbitrary<string> = fc.oneof(
  nastyString.filter((s) => s.length > 0 && s.length < 10_000 && s !== '.' && s !== '..'),
  // ('.' and '..' are left out: the URL resolves dot segments, so they address another route, not an id)
  fc.constantFrom(
    'inv_',
    'inv_0',
    'key_' + 'Z'.repeat(26),
    'inv_01J00000000000000000000000',
    'INV_01J00000000000000000000000',
    '%2e%2e',
    '1',
    '-1',
    '1e5',
    "' or 1=1 --",
  ),
);

/** The zod oracle: does the schema accept this value? A schema that throws counts as a failure to find. */
export function accepts(schema: Operation['body'] | Operation['query'], value: unknown): boolean {
  if (!schema) return false;
  return schema.safeParse(value).success;
}
