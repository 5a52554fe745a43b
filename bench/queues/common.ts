/** What bench/queues.ts needs from each queue it compares, and the job every one of them runs. */

export type Mix = 'plain' | 'retry';

/** Seconds before a failed first attempt is retried: pg-boss takes whole seconds; graphile-worker's is fixed at e (2.72 s). */
export const RETRY_DELAY_S = 3;

/** The same ~1 KB payload for every queue (the outcome of `JSON.stringify` is 1,024 bytes). */
export function payload(seq: number) {
  const base = { invoiceId: 'inv_bench', amountReceived: '10.00', seq, pad: '' };
  return { ...base, pad: 'x'.repeat(1024 - JSON.stringify(base).length) };
}

/**
 * Decides each attempt and counts finished jobs. In the retry mix 30 % of
 * first attempts fail (seq % 10 < 3), each retried once.
 */
export class Tracker {
  private failed = new Set<number>();
  succeeded = 0;
  attempts = 0;
  constructor(readonly mix: Mix) {}
  attempt(seq: number): { ok: boolean; number: number } {
    this.attempts++;
    if (this.mix === 'retry' && seq % 10 < 3 && !this.failed.has(seq)) {
      this.failed.add(seq);
      return { ok: false, number: 1 };
    }
    return { ok: true, number: this.failed.has(seq) ? 2 : 1 };
  }
}

export interface QueueSystem {
  name: string;
  /** The database this queue lives in (its backends' CPU is what is measured). */
  datname: string;
  /** The settings used, for the report. */
  settings: string;
  /** Starts the worker, idle until jobs arrive. */
  start(mix: Mix, tracker: Tracker): Promise<void>;
  /** Adds jobs seq from..from+n-1, in batches of 1,000 (each system's bulk insert). */
  enqueue(from: number, n: number): Promise<void>;
  /** Jobs of this run not yet final in the database (the outcome and the job's own state both written). */
  left(): Promise<number>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export const OUTCOMES_DDL = `create table if not exists bench_outcomes (
  job_id text not null, seq int not null, attempt int not null, ok boolean not null, at timestamptz not null default now())`;
