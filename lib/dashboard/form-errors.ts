import type { z } from 'zod';

/** First message per field from a zod error or the API's details, for inline display. */
export function fieldErrors(issues: { path: PropertyKey[] | string; message: string }[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues ?? []) {
    const key = Array.isArray(i.path) ? i.path.map(String).join('.') : i.path;
    out[key || '_'] ??= i.message;
  }
  return out;
}

export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  return fieldErrors(error.issues);
}
