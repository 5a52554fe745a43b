import { ApiError, RetryLater } from '@/lib/api/errors';
import { ExchangeApiError, ExchangeBusyError, ExchangeError, ExchangeRateLimitedError, TenantShareExceededError } from './errors';

const seconds = (at: Date) => Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
const retryAfter = (at: Date) => ({ 'Retry-After': String(seconds(at)) });

/** Maps a failed exchange call to the answer a tenant sees; anything else is rethrown. */
export function toApiError(err: unknown): never {
  if (err instanceof ApiError || !(err instanceof ExchangeError)) throw err;
  if (err instanceof TenantShareExceededError) {
    throw new RetryLater(
      'rate_limited',
      (s) => `This account's share of the exchange rate limit is used up (other merchants share the exchange); retry in ${s} seconds.`,
      seconds(err.retryAt),
    );
  }
  if (err instanceof ExchangeBusyError || err instanceof ExchangeRateLimitedError) {
    throw new ApiError(
      'exchange_busy',
      'The exchange rate limit is used up for now; retry after the Retry-After seconds.',
      undefined,
      retryAfter(err.retryAt),
    );
  }
  if (err instanceof ExchangeApiError) {
    throw new ApiError('exchange_rejected', `The exchange refused the request: ${err.msg}`, [
      { path: 'exchange', message: `code ${err.code}: ${err.msg}` },
    ]);
  }
  throw new ApiError('exchange_error', 'The exchange did not answer usably; nothing was charged. Retry later.');
}
