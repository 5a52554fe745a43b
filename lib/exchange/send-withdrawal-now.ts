import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { acquireLease, completeLease } from '@/lib/db/lease';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/** The scheduled lane's lease: holding it makes this process the hot wallet's only sender. */
const LANE_LEASE = 'process-withdrawals';

/**
 * Drives one withdrawal through the hot wallet's lane now instead of at the
 * next scheduled pass: runs lane passes while holding the lane's own lease
 * (so there is still a single sender and nonces stay in order), until the
 * withdrawal has a transaction hash, then until it is final or `waitMs` is up.
 */
export async function sendWithdrawalNow(db: Db, net: LaneNetwork, id: string, opts: { waitMs: number; sendWaitMs?: number }): Promise<Withdrawal> {
  const owner = `exchange-withdrawal:${process.pid}:${randomBytes(4).toString('hex')}`;
  const start = Date.now();
  const sendDeadline = start + Math.max(opts.waitMs, opts.sendWaitMs ?? 10_000);
  const finalDeadline = start + opts.waitMs;
  for (;;) {
    const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
    if (!w) throw new Error(`withdrawal ${id} vanished`);
    const final = w.status === 'COMPLETED' || w.status === 'FAILED';
    const now = Date.now();
    if (final || (w.txHash && now >= finalDeadline) || now >= sendDeadline) return w;
    if (await acquireLease(db, LANE_LEASE, owner, 60_000)) {
      try {
        await processWithdrawals(db, net);
      } finally {
        // Free at once: the scheduled lane may run right after.
        await completeLease(db, LANE_LEASE, owner, 0).catch(() => {});
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
