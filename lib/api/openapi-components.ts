import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type Json = Record<string, unknown>;

const PREFIX = '#/components/schemas/';
// Schemas given to `schema()` without a `.meta({ id })` get a temporary id; they are inlined where used.
const ANON = '__anon_';
// Input-side refs carry this marker until we know whether the input shape differs from the output one.
const INPUT_MARK = '~input';

/**
 * Turns zod schemas into OpenAPI components: every schema named with
 * `.meta({ id })` lives once under components/schemas and every `$ref` points
 * there (zod's registry mode with a `uri` mapping). Request bodies and query
 * strings are converted as input (defaults make fields optional), responses
 * and webhook payloads as output; a named schema whose two shapes differ gets
 * a second component `<id>Input`.
 */
export class SchemaComponents {
  private readonly uses: { schema: z.ZodType; io: 'input' | 'output'; target: Json }[] = [];
  private readonly anonIds = new Map<z.ZodType, string>();

  /** A placeholder filled in by build(): the schema (inline) or a $ref to its component. */
  schema(schema: z.ZodType, io: 'input' | 'output'): Json {
    const target: Json = {};
    this.uses.push({ schema, io, target });
    return target;
  }

  /** Fills every placeholder and returns components/schemas, only the schemas the document reaches. */
  build(): Record<string, Json> {
    const { metadata, named } = collectMetadata(this.uses.map((u) => u.schema));
    const out = this.convert('output', named, metadata);
    const inp = this.convert('input', named, metadata);
    const distinct = inputVariants(out, inp);
    const renameInput = (node: unknown) => rewriteRefs(node, (id) => (distinct.has(id) ? `${id}Input` : id));
    const all: Record<string, Json> = {};
    for (const [id, s] of Object.entries(out)) all[id] = s;
    for (const id of distinct) all[`${id}Input`] = renameInput(inp[id]) as Json;
    for (const use of this.uses) {
      const id = this.idOf(use.schema, named);
      const converted = use.io === 'output' ? out[id]! : (renameInput(inp[id]) as Json);
      const fill = id.startsWith(ANON) ? converted : { $ref: PREFIX + (use.io === 'input' && distinct.has(id) ? `${id}Input` : id) };
      Object.assign(use.target, structuredClone(fill));
    }
    return reachable(
      this.uses.map((u) => u.target),
      all,
    );
  }

  private idOf(schema: z.ZodType, named: Map<z.ZodType, string>): string {
    const id = named.get(schema) ?? this.anonIds.get(schema);
    if (id) return id;
    const anon = `${ANON}${this.anonIds.size}`;
    this.anonIds.set(schema, anon);
    return anon;
  }

  private convert(io: 'input' | 'output', named: Map<z.ZodType, string>, metadata: z.core.$ZodRegistry<z.GlobalMeta>): Record<string, Json> {
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of named) registry.add(schema, { id });
    for (const use of this.uses) if (use.io === io) registry.add(use.schema, { id: this.idOf(use.schema, named) });
    const mark = io === 'input' ? INPUT_MARK : '';
    const { schemas } = z.toJSONSchema(registry, {
      io,
      metadata,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      uri: (id) => `${PREFIX}${id}${mark}`,
      override: ({ jsonSchema }) => dropSafeIntegerBounds(jsonSchema as Json),
    }) as { schemas: Record<string, Json> };
    for (const s of Object.values(schemas)) {
      plainNullables(s);
      delete s.$schema;
      delete s.$id;
      if (s.$defs) throw new Error('cyclic or shared unnamed schema: give it a .meta({ id })');
    }
    return schemas;
  }
}

/**
 * zod writes `.int()` as the bounds of a safe integer (±9007199254740991), which no client needs and
 * which viewers took as the example (/docs showed -9007199254740991 for counts): only real bounds stay.
 */
function dropSafeIntegerBounds(s: Json) {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
}

/**
 * zod writes `.nullable()` as `anyOf: [schema, { type: 'null' }]` and an open record's values as `{}`:
 * valid JSON Schema, but Scalar's viewer (/docs) checks schemas against a stricter model that wants a
 * `type` on each, and printed its complaint (hundreds of lines) on every visit. A nullable plain type
 * is the same schema written as `type: [t, 'null']`, and `{}` is `true`; anything else stays as it was.
 */
function plainNullables(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(plainNullables);
  if (!node || typeof node !== 'object') return;
  const s = node as Json;
  for (const v of Object.values(s)) plainNullables(v);
  if (s.additionalProperties && typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties).length === 0) {
    s.additionalProperties = true;
  }
  const branches = s.anyOf as Json[] | undefined;
  if (!branches || branches.length !== 2 || Object.keys(s).some((k) => !['anyOf', 'description', 'examples', 'default'].includes(k))) return;
  const [value, nul] = branches[1]?.type === 'null' ? branches : [branches[1]!, branches[0]!];
  if (nul?.type !== 'null' || Object.keys(nul).length !== 1 || typeof value?.type !== 'string' || 'const' in value) return;
  delete s.anyOf;
  Object.assign(s, { ...value, ...s, type: [value.type, 'null'] });
  if (Array.isArray(value.enum)) s.enum = [...value.enum, null];
}

/**
 * The metadata (descriptions, ids) of every schema reachable from the roots,
 * read from zod's global registry. Walking from the roots instead of listing
 * the global registry matters in Next's build: each bundle instantiates its own
 * copy of a schema module, all registering the same id in the one global registry.
 */
function collectMetadata(roots: z.ZodType[]) {
  const metadata = z.registry<z.GlobalMeta>();
  const named = new Map<z.ZodType, string>();
  const seen = new Set<object>();
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (value instanceof z.ZodType) {
      const meta = z.globalRegistry.get(value);
      if (meta) metadata.add(value, meta);
      if (meta?.id) named.set(value, meta.id);
      visit(value._zod.def);
    } else if (Array.isArray(value)) value.forEach(visit);
    else Object.values(value).forEach(visit);
  };
  roots.forEach(visit);
  return { metadata, named };
}

function rewriteRefs(node: unknown, name: (id: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, name));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) {
      const id = v.slice(PREFIX.length).replace(INPUT_MARK, '');
      out[k] = PREFIX + (v.endsWith(INPUT_MARK) ? name(id) : id);
    } else out[k] = rewriteRefs(v, name);
  }
  return out;
}

/** Named schemas whose input shape differs from the output one (fixpoint: a changed child changes its parents). */
function inputVariants(out: Record<string, Json>, inp: Record<string, Json>): Set<string> {
  const distinct = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, s] of Object.entries(inp)) {
      if (id.startsWith(ANON) || distinct.has(id)) continue;
      const normalized = rewriteRefs(s, (ref) => (distinct.has(ref) ? `${ref}Input` : ref));
      if (!out[id] || !isDeepStrictEqual(normalized, out[id])) {
        distinct.add(id);
        changed = true;
      }
    }
  }
  return distinct;
}

/** The components the given roots reach, following $refs transitively. */
function reachable(roots: unknown[], all: Record<string, Json>): Record<string, Json> {
  const keep: Record<string, Json> = {};
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) {
        const id = v.slice(PREFIX.length);
        if (keep[id]) continue;
        if (!all[id]) throw new Error(`unresolved schema reference ${v}`);
        keep[id] = all[id];
        visit(all[id]);
      } else visit(v);
    }
  };
  roots.forEach(visit);
  return Object.fromEntries(Object.entries(keep).sort(([a], [b]) => a.localeCompare(b)));
}
