import type { z } from 'zod';
import { ApiError, type ErrorDetail } from './errors';

export const MAX_BODY_BYTES = 1_048_576;
/** Deeper JSON is refused before any schema sees it (recursive code, JSON.stringify and jsonb all have limits). */
export const MAX_JSON_DEPTH = 64;

/**
 * Walks a parsed body or query without recursion: refuses nesting deeper than
 * MAX_JSON_DEPTH and NUL characters in any key or string (PostgreSQL text and
 * jsonb cannot store U+0000, so they would otherwise fail deep in a query).
 */
export function assertStorableJson(value: unknown, where: 'body' | 'query'): void {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000'))
        throw new ApiError('validation_failed', `Invalid request ${where}: ${path || where}: must not contain NUL characters`, [
          { path, message: 'must not contain NUL characters' },
        ]);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      throw new ApiError('validation_failed', `Invalid request ${where}: nested deeper than ${MAX_JSON_DEPTH} levels`, [
        { path, message: `nested deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
    for (const [k, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${k}` : k;
      if (k.includes('\u0000'))
        throw new ApiError('validation_failed', `Invalid request ${where}: field names must not contain NUL characters`, [
          { path: childPath, message: 'must not contain NUL characters' },
        ]);
      stack.push([child, childPath, depth + 1]);
    }
  }
}

/** Reads the raw body, refusing more than 1 MB whatever Content-Length claims. */
export async function readRawBody(req: Request): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body: nothing to answer and nothing was written; not a server fault.
      throw new ApiError('request_aborted', 'The request body ended before it was complete.');
    });
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError('invalid_json', 'Request body is not valid UTF-8.');
  }
}

function tooLarge() {
  return new ApiError('payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
}

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Parses and validates a JSON body. An empty body validates as {}. */
export function parseJsonBody(req: Request, raw: string, schema: z.ZodType | undefined): unknown {
  let value: unknown = {};
  if (raw.trim() !== '') {
    if (!isJsonContentType(req.headers.get('content-type'))) {
      throw new ApiError('unsupported_media_type', 'Content-Type must be application/json.');
    }
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError('invalid_json', 'Request body is not valid JSON.');
    }
    assertStorableJson(value, 'body');
  }
  if (!schema) {
    const empty = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
    if (!empty) throw new ApiError('validation_failed', 'This endpoint takes no request body.', [{ path: '', message: 'must be empty' }]);
    return undefined;
  }
  return validate(schema, value, 'body');
}

/** Query string to object; a repeated parameter becomes an array (and so fails a scalar schema). */
export function parseQuery(url: URL, schema: z.ZodType | undefined): unknown {
  if (!schema) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  assertStorableJson(out, 'query');
  return validate(schema, out, 'query');
}

export function validate<T>(schema: z.ZodType<T>, value: unknown, where: 'body' | 'query'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.slice(0, 50).map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.code === 'unrecognized_keys' ? `unknown field(s): ${i.keys.join(', ')}` : i.message,
  }));
  const summary = details
    .slice(0, 3)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join('; ');
  throw new ApiError('validation_failed', `Invalid request ${where}: ${summary}`, details);
}
