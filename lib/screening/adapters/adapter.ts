import type { ChainFamily } from '@/lib/config/rails';

export type AdapterName = 'chainalysis' | 'score_url' | 'sanctions_oracle';

/**
 * One optional screening source besides the offline list (issue 46 §1). `check` answers true (stop the address)
 * or false (nothing known), and throws AdapterFailure for anything else: a timeout, a non-2xx answer, an answer
 * not in the agreed shape. Callers treat a failure as "not screened", never as clean.
 */
export interface ScreeningAdapter {
  name: AdapterName;
  /** The families whose addresses it can judge; unset: every family. An address of another family is not asked. */
  families?: readonly ChainFamily[];
  check(family: ChainFamily, wireAddress: string, signal: AbortSignal): Promise<boolean>;
}

/** Why an adapter read failed, in our own words: never the URL, the key or the remote body (logs and traces see this). */
export class AdapterFailure extends Error {
  name = 'AdapterFailure';
  constructor(readonly reason: 'timeout' | 'unreachable' | `http ${number}` | 'malformed answer' | 'reverted' | 'not configured') {
    super(reason);
  }
}
