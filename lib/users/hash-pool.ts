import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';

/**
 * argon2id costs ~100 ms of CPU per hash; on the main thread ten sign-ins
 * would stall every request of the process for a second. Hashes run on a
 * small pool of worker threads instead, one job per thread at a time, with a
 * bounded queue: past it, callers get 503 `service_unavailable` at once
 * rather than waiting behind a flood. The threads run at a lower CPU priority
 * (PASSWORD_HASH_NICE), so a flood of hashes slows sign-ups, not `/v1`.
 * The ordinary lane is also paced (PASSWORD_HASH_RATE a second, a token
 * bucket): on two cores, 20 hashes a second at nice 10 still doubled `/v1`
 * latency (memory bandwidth and the database's core), so a flood from many
 * addresses waits in the queue, or is refused past it, instead. The urgent
 * lane (the owner's sign-in from a known address) is never paced.
 *
 * The worker is an inline script (eval) that requires hash-wasm by absolute
 * path: no worker file for Next's bundler to lose, the same code under
 * `next dev`, `next start`, tsx and vitest.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes } = require('node:crypto');
const { argon2id, argon2Verify } = require(workerData.hashWasm);
// Linux: this thread alone (not the process) runs at a lower priority (higher nice), so under a flood of
// sign-ups the hashing gets the CPU the event loop and the database leave, instead of a core of their own.
// Where chrt exists, SCHED_IDLE as well: any request or database process that wakes on this core preempts the
// hash at once (nice alone is weighed inside the process's autogroup, not against PostgreSQL).
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) {
    require('node:os').setPriority(tid, workerData.nice);
    if (workerData.idle) require('node:child_process').execFileSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore' });
  }
} catch {}
parentPort.on('message', async (job) => {
  try {
    const result = job.op === 'hash'
      ? await argon2id({ ...job.params, password: job.password, salt: randomBytes(16), outputType: 'encoded' })
      : await argon2Verify({ password: job.password, hash: job.hash }).catch(() => false);
    parentPort.postMessage({ result });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
});
`;

export type HashJob = { op: 'hash'; password: string; params: Record<string, number> } | { op: 'verify'; password: string; hash: string };
type Pending = { job: HashJob; resolve: (v: string | boolean) => void; reject: (e: Error) => void };
type Slot = { worker: Worker; current: Pending | null };

export class HashPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  /** Jobs served before `queue` (each lane bounded by maxQueue): the owner's sign-in from a known address during a flood. */
  private urgent: Pending[] = [];
  readonly stats = { hashes: 0, verifies: 0, refused: 0 };
  /** Token bucket of the ordinary lane: up to `rate` starts banked, one more every 1/rate s. */
  private tokens: number;
  private filledAt = Date.now();
  private wake: NodeJS.Timeout | null = null;
  private readonly hashWasm = createRequire(path.join(process.cwd(), 'package.json')).resolve('hash-wasm');

  constructor(
    private readonly size: number,
    private readonly maxQueue: number,
    private readonly nice = 0,
    /** Ordinary-lane hashes started per second at most; 0: unpaced. */
    private readonly rate = 0,
  ) {
    this.tokens = rate;
  }

  /** Takes a token for an ordinary-lane job, or returns the ms until one is due. */
  private paced(): number {
    if (this.rate <= 0) return 0;
    const now = Date.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.filledAt) * this.rate) / 1000);
    this.filledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }

  run(job: HashJob, opts: { priority?: boolean } = {}): Promise<string | boolean> {
    const lane = opts.priority ? this.urgent : this.queue;
    if (lane.length >= this.maxQueue) {
      this.stats.refused++;
      return Promise.reject(new ApiError('service_unavailable', 'Too many sign-ins at once. Try again in a moment.'));
    }
    if (job.op === 'hash') this.stats.hashes++;
    else this.stats.verifies++;
    return new Promise((resolve, reject) => {
      lane.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.urgent.length + this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.current);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      if (this.urgent.length === 0) {
        const waitMs = this.paced();
        if (waitMs > 0) {
          this.wake ??= setTimeout(() => {
            this.wake = null;
            this.pump();
          }, waitMs);
          return;
        }
      }
      const next = (this.urgent.length > 0 ? this.urgent : this.queue).shift()!;
      slot.current = next;
      // Referenced only while busy: a CLI awaiting a hash must not exit under it, an idle pool must not hold a process.
      slot.worker.ref();
      slot.worker.postMessage(next.job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { hashWasm: this.hashWasm, nice: this.nice, idle: this.nice > 0 && process.env.PASSWORD_HASH_IDLE !== '0' },
    });
    const slot: Slot = { worker, current: null };
    worker.on('message', (m: { result?: string | boolean; error?: string }) => {
      const p = slot.current;
      slot.current = null;
      worker.unref();
      if (p) {
        if (m.error !== undefined) p.reject(new Error(`password hashing failed: ${m.error}`));
        else p.resolve(m.result!);
      }
      this.pump();
    });
    const drop = (err: Error) => {
      // A dead thread fails its job (never a silent "wrong password") and is replaced on demand.
      this.slots = this.slots.filter((s) => s !== slot);
      slot.current?.reject(err);
      slot.current = null;
      this.pump();
    };
    worker.on('error', drop);
    worker.on('exit', (code) => drop(new Error(`password hashing thread exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

const globalKey = Symbol.for('gateway.hashPool');
type GlobalWithPool = typeof globalThis & { [globalKey]?: HashPool };

/** The process's pool (one across Next's module graphs). */
export function hashPool(): HashPool {
  const g = globalThis as GlobalWithPool;
  if (!g[globalKey]) {
    const e = env();
    const size = e.PASSWORD_HASH_THREADS || Math.max(1, availableParallelism() - 1);
    g[globalKey] = new HashPool(size, e.PASSWORD_HASH_QUEUE, e.PASSWORD_HASH_NICE, e.PASSWORD_HASH_RATE);
  }
  return g[globalKey];
}
