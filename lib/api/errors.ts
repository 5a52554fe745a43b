/** Machine-readable error codes and the HTTP status each maps to: the one table. */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  request_aborted: 400,
  invalid_amount: 400,
  amount_below_minimum: 400,
  invalid_address: 400,
  destination_own_wallet: 400,
  destination_token_contract: 400,
  destination_deposit_address: 400,
  destination_blacklisted: 400,
  destination_screened: 400,
  // Solana's destination rule (lib/chain/common/destination-refusal.ts): the account cannot receive the token.
  not_associated_token_account: 400,
  token_account_other_mint: 400,
  token_account_frozen: 400,
  mint_account: 400,
  token_2022_account: 400,
  program_account: 400,
  program_owned_account: 400,
  off_curve_unknown: 400,
  invalid_url: 400,
  limit_exceeded: 400,
  insufficient_balance: 400,
  refund_exceeds_received: 400,
  withdrawal_limit_exceeded: 400,
  unknown_currency: 400,
  currency_unavailable: 400,
  amount_out_of_range: 400,
  exchange_rejected: 400,
  unknown_api_version: 400,
  payout_items_invalid: 400,
  // The payer's USDC permit signatures (lib/subscriptions/collect/verify-permit.ts): refused before anything is sent.
  permit_invalid_signature: 400,
  permit_expired: 400,
  permit_value_exceeds_cap: 400,
  permit_wrong_chain: 400,
  invalid_api_key: 401,
  insufficient_scope: 403,
  tenant_suspended: 403,
  https_required: 403,
  mode_mismatch: 403,
  forbidden: 403,
  destination_not_allowed: 403,
  approval_required: 403,
  two_factor_required: 403,
  claim_token_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  invalid_state: 409,
  secret_not_replayable: 409,
  nothing_to_refund: 409,
  too_many_refund_requests: 409,
  sender_not_refundable: 409,
  duplicate_reference: 409,
  collection_not_authorized: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  too_many_open_orders: 429,
  too_many_open_invoices: 429,
  too_many_failed_auth: 429,
  internal_error: 500,
  exchange_error: 502,
  exchange_unavailable: 503,
  exchange_busy: 503,
  service_unavailable: 503,
  rate_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ErrorDetail {
  path: string;
  message: string;
  /** A batch's per-row refusal (POST /v1/payouts): the code the row alone would have been refused with. */
  code?: ErrorCode;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/**
 * A refusal that holds for this key until Retry-After whatever it sends
 * meanwhile (a rate-limit window's count only grows; a tenant past its
 * exchange share stays past it until its spends leave the window), so the
 * /v1 wrapper may answer the key's repeats from memory (refusal-memo.ts).
 * `message` takes the seconds, so a repeat says the time left.
 */
export class RetryLater extends ApiError {
  constructor(
    code: ErrorCode,
    private readonly text: (seconds: number) => string,
    readonly retryAfter: number,
  ) {
    super(code, text(retryAfter), undefined, { 'Retry-After': String(retryAfter) });
  }

  /** The same refusal with `seconds` left. */
  redated(seconds: number): RetryLater {
    return new RetryLater(this.code, this.text, seconds);
  }
}

export function reasonPhrase(status: number): string {
  return REASON[status] ?? 'Error';
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: ErrorCode;
  details?: ErrorDetail[];
  requestId: string;
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    statusCode: err.status,
    error: reasonPhrase(err.status),
    message: err.message,
    code: err.code,
    ...(err.details ? { details: err.details } : {}),
    requestId,
  };
}

export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found.`);
