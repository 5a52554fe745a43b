import { inArray } from 'drizzle-orm';
import { settlements, settlementTxs } from '@/db/schema';
import type { RetryPolicy } from '@/lib/settlements/record-settlement-failure';
import { runSettlements } from '@/lib/settlements/run-settlements';
import { reclaimSweepResources, type SettleHooks, type SettleNetwork } from '@/lib/settlements/settle-invoice';
import type { TronPaid } from './tron-paid-settlement';
import type { TronRail } from './tron-rail';

const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/**
 * What the stand-in's chain shows of a deposit address, for the TRON sweep fault tests: the successful USDT
 * transfers out of it ([to as 41… hex, units]) and how many transactions it signed that reached a block.
 */
export function depositOnChain(rail: TronRail, deposit: string) {
  const from = deposit.toLowerCase().slice(-40);
  const txs = [...rail.node.chain.txs.values()];
  return {
    transfers: txs
      .filter((r) => r.ret === 'SUCCESS')
      .flatMap((r) => r.log)
      .filter((l) => l.address.slice(-40) === rail.node.usdtHex.slice(-40) && l.topics[0] === TRANSFER && l.topics[1]?.slice(-40) === from)
      .map((l): [string, bigint] => [`41${l.topics[2]!.slice(-40)}`, BigInt(`0x${l.data}`)]),
    signed: txs.filter(
      (r) => (r.tx.raw_data.contract[0]?.parameter.value as { owner_address?: string }).owner_address?.toLowerCase() === deposit.toLowerCase(),
    ).length,
  };
}

/**
 * Runs the settlements side by side, each claimed by its own runner (`only`: other files' settlements are not
 * ours), pass after pass as the jobs would, with the janitor after each pass, until every one has its energy back
 * (its `undelegate` confirmed). `afterPass` runs between passes (a fault injected there hits sweeps mid-way). A
 * waiting sweep is made due again at once rather than slept for.
 */
export async function sweepSideBySide(
  rail: TronRail,
  ts: TronPaid[],
  opts: { net?: SettleNetwork; hooks: SettleHooks; retry?: RetryPolicy; afterPass?: (pass: number) => Promise<void> },
) {
  const db = ts[0]!.db;
  const net = opts.net ?? rail.net;
  const ids = ts.map((t) => t.settlementId);
  const retry = opts.retry ?? { maxAttempts: 100, backoffMs: 0 };
  const deadline = Date.now() + 150_000;
  for (let pass = 1; ; pass++) {
    await Promise.all(ids.map((only) => runSettlements(db, net, { only, hooks: opts.hooks, retry })));
    // A crash or another file's settlement fails the janitor's pass, not the test.
    await reclaimSweepResources(db, net, opts.hooks).catch(() => undefined);
    const done = await db.select().from(settlementTxs).where(inArray(settlementTxs.settlementId, ids));
    if (ids.every((id) => done.some((r) => r.settlementId === id && r.step === 'undelegate' && r.status === 'confirmed'))) return;
    if (Date.now() > deadline) throw new Error(`never completed: ${JSON.stringify(done.map((r) => [r.settlementId, r.step, r.status]))}`);
    await opts.afterPass?.(pass);
    await rail.node.mine(1);
    await db
      .update(settlements)
      .set({ nextAttemptAt: new Date(Date.now() - 1_000) })
      .where(inArray(settlements.id, ids));
  }
}
