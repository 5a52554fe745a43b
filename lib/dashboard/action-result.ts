import { ZodError } from 'zod';
import { ApiError, type ErrorDetail } from '@/lib/api/errors';
import { log } from '@/lib/log';

/** What every dashboard server action returns: the client shows `error.message` and per-field `details`. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string; details?: ErrorDetail[] } };

export async function runAction<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: { code: err.code, message: err.message, details: err.details } };
    if (err instanceof ZodError) {
      const details = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      return {
        ok: false,
        error: { code: 'validation_failed', message: details.map((d) => `${d.path || 'input'}: ${d.message}`).join('; '), details },
      };
    }
    // Next's redirect/notFound are control flow, not failures.
    if (err && typeof err === 'object' && 'digest' in err && String((err as { digest: unknown }).digest).startsWith('NEXT_')) throw err;
    log.error('dashboard action failed', { error: err instanceof Error ? err.message : String(err) });
    return { ok: false, error: { code: 'internal_error', message: 'Something went wrong on our side. Try again in a moment.' } };
  }
}
