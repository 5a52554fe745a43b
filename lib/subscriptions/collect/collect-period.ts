import { and, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { collectionPulls, type CollectionPull } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { CollectionState } from '../read-collection-state';
import type { CollectorNetwork } from './collector-network';
import { fallBack, settleHeldInvoiceEmail, type Attempt, type FallbackReason } from './fall-back';
import { pricePullGas } from './price-pull-gas';
import { pullOpsOf } from './pull-ops';

/** Tests: a crash after the pull is recorded (before its broadcast), or after its broadcast (its receipt never read). */
export interface CollectHooks {
  beforeBroadcast?: (row: CollectionPull) => void | Promise<void>;
  afterBroadcast?: (row: CollectionPull) => void | Promise<void>;
}

export interface PeriodToCollect extends Attempt {
  /** The payer's address as stored (subscription_collections.payer). */
  payer: string;
  permissionId: Hex;
}

/** `in_flight`: a recorded pull broadcast and not final yet (TRON: not solidified), resumed by the next run. */
export type CollectOutcome = 'pulled' | 'fell_back' | 'raced' | 'in_flight';

const REASONS: Record<Exclude<Extract<CollectionState, { ready: false }>['reason'], 'not_authorized'>, FallbackReason> = {
  allowance_revoked: 'approval revoked',
  insufficient_allowance: 'insufficient allowance',
  insufficient_balance: 'insufficient balance',
};

/** Why the permission allows nothing now: revoked by its payer (their cancellation of automatic collection) or this period's cap used. */
async function notAuthorizedReason(net: CollectorNetwork, p: PeriodToCollect): Promise<FallbackReason> {
  const perm = await pullOpsOf(net).readPermission(net, p.payer, p.permissionId);
  return perm.revoked ? 'approval revoked' : 'period cap used';
}

/** A recorded pull sent (or resent) and, once final, its outcome recorded: pulled (the held e-mail dropped) or reverted (e-mailed instead). */
async function finish(db: Db, net: CollectorNetwork, row: CollectionPull, p: Attempt, now: Date, hooks: CollectHooks): Promise<CollectOutcome> {
  const ops = pullOpsOf(net);
  const progress = await ops.advance(db, net, row, hooks.afterBroadcast && (() => hooks.afterBroadcast!(row)));
  if (progress === 'in_flight') return 'in_flight';
  if (progress === 'reverted') return (await fallBack(db, p, 'reverted', now, row.id)) ? 'fell_back' : 'raced';
  // Another worker resuming the same recorded pull saw the same receipt: only one of them records the outcome.
  return db.transaction(async (tx) => {
    const done = await tx
      .update(collectionPulls)
      // The merchant's cost, decided once with the confirmation; charged with the credit of the pulled money (charge-pull-fees.ts).
      .set({ status: 'confirmed', confirmedAt: now, networkFee: await pricePullGas(tx, net, row.id, ops.costDecimals) })
      .where(and(eq(collectionPulls.id, row.id), eq(collectionPulls.status, 'signed')))
      .returning({ id: collectionPulls.id });
    if (!done.length) return 'raced';
    await settleHeldInvoiceEmail(tx, p.invoiceId, false, now);
    return 'pulled';
  });
}

/**
 * Collects one period automatically (issue 48 §2), or resumes its recorded pull, on any family with a collector
 * (what differs is behind pullOpsOf(net): pull-ops.ts). First the chain is read (balance, allowance, what the
 * permission allows); a failed read throws, to be retried by the next run, and is never taken for "insufficient".
 * Not collectable: the invoice is e-mailed instead, the attempt recorded with its reason. Collectable: the pull is
 * recorded, signed, before it is broadcast (with the admin's allow of the invoice's deposit address when the collector
 * does not allow it yet); the invoice watcher then sees the payment.
 */
export async function collectPeriod(
  db: Db,
  net: CollectorNetwork,
  p: PeriodToCollect,
  now: Date,
  recorded: CollectionPull | null,
  hooks: CollectHooks = {},
): Promise<CollectOutcome> {
  if (recorded) return finish(db, net, recorded, p, now, hooks);
  const ops = pullOpsOf(net);
  const state = await ops.readState(net, { permissionId: p.permissionId, payer: p.payer, amount: unitsOf(p.amount, net.decimals) });
  if (!state.ready) {
    const reason = state.reason === 'not_authorized' ? await notAuthorizedReason(net, p) : REASONS[state.reason];
    return (await fallBack(db, p, reason, now)) ? 'fell_back' : 'raced';
  }
  const allowed = await ops.depositAllowed(net, p.depositAddress);
  if (!allowed && !net.adminKey) return (await fallBack(db, p, 'deposit address not allowed', now)) ? 'fell_back' : 'raced';
  const row = await ops.record(db, net, { ...p, needsAllow: !allowed });
  if (!row) return 'raced';
  await hooks.beforeBroadcast?.(row);
  return finish(db, net, row, p, now, hooks);
}

function unitsOf(amount: string, decimals: number): bigint {
  const [whole, frac = ''] = amount.split('.');
  const cut = frac.replace(/0+$/, '');
  if (cut.length > decimals) throw new Error(`amount ${amount} has more than ${decimals} decimals`);
  return BigInt(whole! + cut.padEnd(decimals, '0'));
}
