import type { Db } from '@/lib/db';
import { recordAttempts, type AttemptRecord } from './record-attempts';

type Pending = { record: AttemptRecord; resolve: (ok: boolean) => void; reject: (e: unknown) => void };

/**
 * Group commit for the delivery loop: outcomes that finish while a write is
 * in flight share the next statement. No added delay when idle; batches grow
 * with load, which keeps the database cost per delivery low.
 */
export function createAttemptRecorder(db: Db, { maxBatch = 500, maxInFlight = 2 } = {}) {
  let queue: Pending[] = [];
  let writing = 0;
  let scheduled = false;

  const flush = async () => {
    scheduled = false;
    if (queue.length === 0 || writing >= maxInFlight) return;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    writing++;
    try {
      const recorded = await recordAttempts(
        db,
        batch.map((b) => b.record),
      );
      for (const b of batch) b.resolve(recorded.has(b.record.deliveryId));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      writing--;
      schedule();
    }
  };
  const schedule = () => {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  return (record: AttemptRecord): Promise<boolean> =>
    new Promise((resolve, reject) => {
      queue.push({ record, resolve, reject });
      schedule();
    });
}
