import { z } from 'zod';

/** ISO 8601 with milliseconds, as every timestamp on the wire. */
export const Timestamp = z.iso.datetime({ offset: false, precision: 3 });
export const NullableTimestamp = Timestamp.nullable();

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Paged list query: page defaults to 1, limit to 20 (max 100). */
export const PageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe('Page number, from 1.'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Items per page, at most 100.'),
});

export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    meta: z.object({
      total: z.int().meta({ examples: [42] }),
      page: z.int().meta({ examples: [1] }),
      lastPage: z.int().meta({ examples: [3] }),
    }),
  });
}

export function pageMeta(total: number, page: number, limit: number) {
  return { total, page, lastPage: Math.max(1, Math.ceil(total / limit)) };
}

export const ErrorSchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    code: z.string(),
    details: z
      .array(
        z.object({
          path: z.string(),
          message: z.string(),
          code: z.string().optional().describe("A batch's per-row refusal (POST /v1/payouts): the code that row alone would get."),
        }),
      )
      .optional(),
    requestId: z.string(),
  })
  .meta({ id: 'Error' });
