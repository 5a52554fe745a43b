import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { runLanePassNow } from '@/lib/withdrawals/lane-lease';

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
    await runLanePassNow(db, net, owner);
    await new Promise((r) => setTimeout(r, 200));
  }
}
