import { and, eq } from 'drizzle-orm';
import type { Address, Hex, PublicClient } from 'viem';
import { collectionPulls, type CollectionPull } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { Db } from '@/lib/db';
import { readCollectionState, type CollectionState } from '../read-collection-state';
import type { CollectorNetwork } from './collector-network';
import { fallBack, settleHeldInvoiceEmail, type Attempt, type FallbackReason } from './fall-back';
import { pricePullGas } from './price-pull-gas';
import { recordPull, sendPull } from './pull-tx';

/** Tests: a crash after the pull is recorded (before its broadcast), or after its broadcast (its receipt never read). */
export interface CollectHooks {
  beforeBroadcast?: (row: CollectionPull) => void | Promise<void>;
  afterBroadcast?: (row: CollectionPull) => void | Promise<void>;
}

export interface PeriodToCollect extends Attempt {
  payer: Address;
  permissionId: Hex;
}

export type CollectOutcome = 'pulled' | 'fell_back' | 'raced';

const REASONS: Record<Exclude<Extract<CollectionState, { ready: false }>['reason'], 'not_authorized'>, FallbackReason> = {
  allowance_revoked: 'approval revoked',
  insufficient_allowance: 'insufficient allowance',
  insufficient_balance: 'insufficient balance',
};

/** Why the permission allows nothing now: revoked by its payer (their cancellation of automatic collection) or this period's cap used. */
async function notAuthorizedReason(client: PublicClient, net: CollectorNetwork, p: PeriodToCollect): Promise<FallbackReason> {
  const perm = (await client.readContract({
    address: net.collectorAddress,
    abi: COLLECTOR_ABI,
    functionName: 'permissions',
    args: [p.payer, p.permissionId],
  })) as readonly unknown[];
  return perm[6] === true ? 'approval revoked' : 'period cap used';
}

/** A recorded pull sent (or resent) and its outcome recorded: pulled (the held e-mail dropped) or reverted (e-mailed instead). */
async function finish(
  db: Db,
  client: PublicClient,
  net: CollectorNetwork,
  row: CollectionPull,
  p: Attempt,
  now: Date,
  hooks: CollectHooks,
): Promise<CollectOutcome> {
  const { ok } = await sendPull(db, client, net, row, hooks.afterBroadcast && (() => hooks.afterBroadcast!(row)));
  if (!ok) return (await fallBack(db, p, 'reverted', now, row.id)) ? 'fell_back' : 'raced';
  // Another worker resuming the same recorded pull saw the same receipt: only one of them records the outcome.
  return db.transaction(async (tx) => {
    const done = await tx
      .update(collectionPulls)
      // The merchant's cost, decided once with the confirmation; charged with the credit of the pulled money (charge-pull-fees.ts).
      .set({ status: 'confirmed', confirmedAt: now, networkFee: await pricePullGas(tx, net, row.id) })
      .where(and(eq(collectionPulls.id, row.id), eq(collectionPulls.status, 'signed')))
      .returning({ id: collectionPulls.id });
    if (!done.length) return 'raced';
    await settleHeldInvoiceEmail(tx, p.invoiceId, false, now);
    return 'pulled';
  });
}

/**
 * Collects one period automatically (issue 48 §2), or resumes its recorded pull. First the chain is read (balance,
 * allowance, what the permission allows: one batch, one block); a failed read throws, to be retried by the next run,
 * and is never taken for "insufficient". Not collectable: the invoice is e-mailed instead, the attempt recorded with
 * its reason. Collectable: the pull is recorded, signed, before it is broadcast (with the admin's allow of the
 * invoice's deposit address when the collector does not allow it yet); the invoice watcher then sees the payment.
 */
export async function collectPeriod(
  db: Db,
  client: PublicClient,
  net: CollectorNetwork,
  p: PeriodToCollect,
  now: Date,
  recorded: CollectionPull | null,
  hooks: CollectHooks = {},
): Promise<CollectOutcome> {
  if (recorded) return finish(db, client, net, recorded, p, now, hooks);
  const state = await readCollectionState(net, {
    subscriptionId: p.permissionId,
    payer: p.payer,
    token: net.tokenAddress,
    amount: unitsOf(p.amount, net.decimals),
  });
  if (!state.ready) {
    const reason = state.reason === 'not_authorized' ? await notAuthorizedReason(client, net, p) : REASONS[state.reason];
    return (await fallBack(db, p, reason, now)) ? 'fell_back' : 'raced';
  }
  const to = p.depositAddress as Address;
  const allowed = (await client.readContract({
    address: net.collectorAddress,
    abi: COLLECTOR_ABI,
    functionName: 'depositAllowed',
    args: [to],
  })) as boolean;
  if (!allowed && !net.adminKey) return (await fallBack(db, p, 'deposit address not allowed', now)) ? 'fell_back' : 'raced';
  const row = await recordPull(db, client, net, { ...p, depositAddress: to, needsAllow: !allowed });
  if (!row) return 'raced';
  await hooks.beforeBroadcast?.(row);
  return finish(db, client, net, row, p, now, hooks);
}

function unitsOf(amount: string, decimals: number): bigint {
  const [whole, frac = ''] = amount.split('.');
  const cut = frac.replace(/0+$/, '');
  if (cut.length > decimals) throw new Error(`amount ${amount} has more than ${decimals} decimals`);
  return BigInt(whole! + cut.padEnd(decimals, '0'));
}
