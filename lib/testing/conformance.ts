import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import type { Operation } from '@/lib/api/operation';
import { API_VERSION_HEADER, LATEST_API_VERSION } from '@/lib/api/versions';
import { OPERATIONS } from '@/lib/operations';

/**
 * Response conformance for the test harness (lib/testing/app.ts `call`): every
 * answer of a /v1 operation must have a status the OpenAPI document declares
 * for it and a body valid against the schema declared for that status. A
 * mismatch throws, so the test that made the call fails. Each checked
 * operation id is appended to a file in CONFORMANCE_DIR (set by global setup),
 * whose teardown reports the operations no test reached.
 */
export const CONFORMANCE_DIR_ENV = 'GW_CONFORMANCE_DIR';

interface Matcher {
  op: Operation;
  method: string;
  pattern: RegExp;
  params: number;
}

let matchers: Matcher[] | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function findOperation(method: string, pathname: string): Operation | undefined {
  matchers ??= OPERATIONS.map((op) => ({
    op,
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/:\w+/g, '[^/]+')}$`),
    params: Object.keys(op.params ?? {}).length,
  })).sort((a, b) => a.params - b.params); // a static segment wins over a parameter, as in the App Router
  return matchers.find((m) => m.method === method && m.pattern.test(pathname))?.op;
}

type DocOperation = { responses: Record<string, { content?: Record<string, { schema: object }> }> };

function validator(op: Operation, status: string, schema: object): ValidateFunction {
  const key = `${op.id} ${status}`;
  let v = validators.get(key);
  if (!v) {
    const doc = buildOpenApiDocument(OPERATIONS);
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
    }
    // The schema carries the components so its `#/components/schemas/...` refs resolve as they do from the document root.
    v = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
    validators.set(key, v);
  }
  return v;
}

/** Throws when a /v1 operation's answer is not what the document declares. Other paths (unknown, 405s) are not operations: skipped. */
export function checkConformance(method: string, pathname: string, status: number, headers: Headers, body: unknown) {
  const op = findOperation(method, pathname);
  if (!op) return;
  record(op.id, status);
  const docOp = (buildOpenApiDocument(OPERATIONS).paths[op.path.replace(/:(\w+)/g, '{$1}')] as Record<string, DocOperation>)[method.toLowerCase()]!;
  const declared = docOp.responses[String(status)];
  if (!declared) {
    throw new Error(
      `${method} ${pathname} (${op.id}) answered ${status}, which the OpenAPI document does not declare (declared: ${Object.keys(docOp.responses).join(', ')}). Body: ${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
  const media = declared.content?.['application/json'];
  if (!media) return;
  // The document describes the latest API version; an older version's 2xx body is that version's (lib/api/versions.ts).
  const version = headers.get(API_VERSION_HEADER);
  if (status < 300 && version !== null && version !== LATEST_API_VERSION) return;
  if (!headers.get('content-type')?.startsWith('application/json'))
    throw new Error(`${op.id} ${status}: content type ${headers.get('content-type')} is not JSON`);
  const validate = validator(op, String(status), media.schema);
  if (!validate(body)) {
    const errors = validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');
    throw new Error(`${op.id} ${status}: the body does not match the OpenAPI document: ${errors}. Body: ${JSON.stringify(body)?.slice(0, 500)}`);
  }
}

const seen = new Set<string>();
function record(opId: string, status: number) {
  const dir = process.env[CONFORMANCE_DIR_ENV];
  const line = `${opId} ${status}`;
  if (!dir || seen.has(line)) return;
  seen.add(line);
  appendFileSync(path.join(dir, `${process.pid}.txt`), `${line}\n`);
}
