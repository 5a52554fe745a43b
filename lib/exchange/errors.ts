/** Every failure of an exchange call; `retryable` tells read callers whether trying again can help. */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The exchange answered with a non-zero code: it understood and refused. */
export class ExchangeApiError extends ExchangeError {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly method: string,
  ) {
    super(`exchange ${method}: code ${code}: ${msg}`, false);
  }
}

/** An HTTP status other than 200 and 429. 5xx may be retried on read methods. */
export class ExchangeHttpError extends ExchangeError {
  constructor(
    readonly status: number,
    readonly method: string,
  ) {
    super(`exchange ${method}: HTTP ${status}`, status >= 500);
  }
}

/** HTTP 429: the exchange's limit was hit; every process backs off until `retryAt`. */
export class ExchangeRateLimitedError extends ExchangeError {
  constructor(
    readonly method: string,
    readonly retryAt: Date,
  ) {
    super(`exchange ${method}: rate limited until ${retryAt.toISOString()}`, true);
  }
}

/** Our own budget would be exceeded for longer than the caller may wait. */
export class ExchangeBusyError extends ExchangeError {
  constructor(readonly retryAt: Date) {
    super(`exchange weight budget exhausted until ${retryAt.toISOString()}`, true);
  }
}

/** The tenant holds its whole fair share of the window (fair-share.ts): it retries at `retryAt`; nothing was sent. */
export class TenantShareExceededError extends ExchangeError {
  constructor(readonly retryAt: Date) {
    super(`tenant's share of the exchange weight budget used up until ${retryAt.toISOString()}`, false);
  }
}

/** No answer (connection error, timeout, unreadable body): a create may or may not have happened. */
export class ExchangeNoAnswerError extends ExchangeError {
  constructor(
    readonly method: string,
    cause: string,
  ) {
    super(`exchange ${method}: no usable answer (${cause})`, true);
  }
}
