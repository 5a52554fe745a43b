import { sql } from 'drizzle-orm';
import { sleep } from '@/lib/async/sleep';
import { rowsOf, type Db } from '@/lib/db';

const RETRY_MS = 25;

/**
 * Runs `fn` in a transaction holding the advisory lock `key` (pg_advisory_xact_lock semantics: released at commit
 * or rollback), but waits for it with pg_try_advisory_xact_lock outside any transaction: a sweep blocked in
 * pg_advisory_xact_lock holds a pool connection, and 64 sweeps planning at once held all of the pool's 10 while
 * the holder read the chain, so the watcher, the fan-out and every other sweep waited behind them (issue 44's bench:
 * payments fanned out minutes after they were found).
 */
export async function underEnergyLock<T>(db: Db, key: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [got] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${key})) as ok`));
      return got?.ok ? { value: await fn(tx) } : null;
    });
    if (done) return done.value;
    await sleep(RETRY_MS + Math.random() * RETRY_MS);
  }
}
