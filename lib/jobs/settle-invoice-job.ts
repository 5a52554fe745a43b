import { z } from 'zod';
import type { Db } from '@/lib/db';
import { getNetworks, isNetworkReady, requireNetwork } from '@/lib/chain/network';
import { CHAINS } from '@/lib/config/rails';
import { dueSettlements } from '@/lib/settlements/due-settlements';
import { runSettlements } from '@/lib/settlements/run-settlements';
import { SETTLE_FIELDS } from '@/lib/settlements/settle-invoice';
import { MODES, ModeSchema } from '@/lib/mode';

/**
 * The payload of one settlement run (Trigger.dev's settle-invoice task). The
 * fan-out builds it and the task parses it with this one schema, so the two
 * cannot disagree on its fields.
 */
export const SettleInvoicePayload = z.strictObject({
  settlementId: z.string().min(1),
  mode: ModeSchema,
  /** The settlement's network (always named: no default network). */
  chain: z.enum(CHAINS),
});
export type SettleInvoicePayload = z.infer<typeof SettleInvoicePayload>;

/** Settles the one settlement named, if it is due (claimSettlement decides; a finished or held one is skipped). */
export async function runSettleInvoiceJob(db: Db, payload: SettleInvoicePayload) {
  const { settlementId, mode, chain } = SettleInvoicePayload.parse(payload);
  // An unconfigured network is a clear error here, not an undefined key deep in the sweep.
  return runSettlements(db, requireNetwork(mode, chain, SETTLE_FIELDS), { only: settlementId });
}

/**
 * Queues one run per due settlement of every ready network. The key includes
 * the attempt, so a settlement is queued once per attempt: new ones and
 * retries that fell due.
 */
export async function enqueueDueSettlements(
  db: Db,
  enqueue: (payload: SettleInvoicePayload, idempotencyKey: string) => Promise<unknown>,
): Promise<void> {
  for (const net of MODES.flatMap((m) => getNetworks(m))) {
    if (!isNetworkReady(net)) continue;
    for (const s of await dueSettlements(db, net)) {
      await enqueue(SettleInvoicePayload.parse({ settlementId: s.id, mode: net.mode, chain: net.chain }), `${s.id}:${s.attempts}`);
    }
  }
}
