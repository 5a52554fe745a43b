import type { z } from 'zod';
import type { Scope } from './scopes';
import type { ErrorCode } from './errors';
import type { IdKind } from '@/lib/ids';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * One `/v1` operation: the contract both ways. Route handlers, the OpenAPI
 * document and the generated authorization tests all read these.
 */
export interface Operation<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  id: string;
  method: HttpMethod;
  /** Express-style path, e.g. /v1/api-keys/:id */
  path: string;
  /** Scope required; null means any valid key. */
  scope: Scope | null;
  tag: string;
  summary: string;
  description?: string;
  body?: B;
  query?: Q;
  response: R;
  /** Success status, 200 unless given. */
  status?: number;
  /** Path parameters and the kind of id each one holds (junk ids are a 404 without a query). */
  params?: Record<string, IdKind>;
  /** Error codes this operation can answer besides the common ones. */
  errors?: ErrorCode[];
  /** A valid request body: shown in the reference and used by the generated auth tests. */
  example?: B extends z.ZodType ? z.input<B> : never;
  /**
   * Top-level response fields that carry a secret shown once (an API key, a signing secret).
   * The idempotency record keeps the response without them, and replaying a successful
   * request answers 409 secret_not_replayable instead of showing the secret again
   * (lib/api/idempotency.ts). lib/api/secret-fields.test.ts fails for a secret-looking
   * response field that is not declared here.
   */
  secretFields?: readonly string[];
  /**
   * Replay a successful request without its secretFields instead of refusing it: for a create whose
   * client must get its object on a retry (POST /v1/invoices: the invoice, without the payer's checkout URL).
   */
  replayWithoutSecrets?: boolean;
  /** Only test-mode keys see it; live keys get 404. */
  testOnly?: boolean;
  /**
   * GET operations whose success body is a streamed file, not JSON: the handler returns a `FileBody`
   * (lib/api/file-body.ts), sent as an attachment; `response` is then only `fileBody` and the document
   * declares the media type with a string schema. Errors stay JSON.
   */
  produces?: 'text/csv';
  /** An old path kept working for existing clients; marked `deprecated` in the document, which names the replacement in `description`. */
  deprecated?: boolean;
}

export function defineOperation<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, R extends z.ZodType>(
  op: Operation<B, Q, R>,
): Operation<B, Q, R> {
  return op;
}
