import { and, eq, sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { railOf } from '@/lib/chain/network';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { buildTrc20Transfer, signTronTx, type SignedTronTx } from '@/lib/chain/tron/transactions';
import { failWithdrawal } from './finish-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import { dueWithdrawals } from './due-withdrawals';
import { tronPreflight } from './tron-preflight';
import type { SendOptions } from './send-pending-withdrawals';

/** A few minutes: long enough for a slow broadcast to land, short enough that an unmined one is proven expired soon. */
export const TRON_TX_LIFETIME_MS = 180_000;

export interface TronHotWallet {
  /** Hex private key without 0x (TronWeb's form); never logged. */
  privateKey: string;
  /** Stored `41…` form. */
  address: string;
}

/** The recorded signed transaction back in the form broadcastTronTx and isSafelyExpired take. */
export function recordedTronTx(w: Withdrawal): SignedTronTx {
  return { txId: w.txHash!, tx: JSON.parse(w.signedTx!), expiration: w.txExpiration!, refBlockNumber: w.refBlockNumber! };
}

async function postpone(db: Db, w: Withdrawal, reason: string, now: Date, delayMs: number) {
  await db
    .update(withdrawals)
    .set({ pendingReason: reason, nextAttemptAt: new Date(now.getTime() + delayMs), updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING')));
}

/**
 * Sends the due PENDING withdrawals of a TRON hot wallet (docs/tron.md §5): preflight (blacklist, USDT, energy
 * and TRX, estimate), build the USDT transfer against the node's head block with a lifetime of minutes, sign,
 * store txID, signed transaction, expiration and reference block with status PROCESSING, then broadcast. A crash
 * after the store leaves a PROCESSING row whose exact bytes tracking rebroadcasts; a new signature is made only
 * after tracking proved the stored one can never be mined (isSafelyExpired) and put the withdrawal back here.
 */
export async function sendPendingTronWithdrawals(db: Db, lane: LaneNetwork, client: TronNodeClient, hot: TronHotWallet, opts: SendOptions = {}) {
  const now = opts.now ?? new Date();
  const delay = opts.retryDelayMs ?? 15_000;
  const due = await dueWithdrawals(db, lane, now);
  let sent = 0;
  for (const w of due) {
    const net = railOf(lane, w.token);
    if (!net) {
      await postpone(db, w, `${w.token} is not enabled on ${lane.chain}; waiting.`, now, delay);
      continue;
    }
    const amount = parseUnits(w.netAmount, net.decimals);
    let signed: SignedTronTx;
    try {
      // Read right before signing: the blacklist may have changed since the withdrawal was accepted.
      const pre = await tronPreflight(client, {
        token: net.tokenAddress,
        symbol: net.token,
        decimals: net.decimals,
        from: hot.address,
        to: w.destinationAddress,
        amount,
      });
      if (pre.kind === 'fail') {
        await failWithdrawal(db, w.id, pre.reason);
        continue;
      }
      if (pre.kind === 'wait') {
        await postpone(db, w, pre.reason, now, delay);
        continue;
      }
      const { head } = await readTronHeads(client);
      const unsigned = await buildTrc20Transfer({
        token: net.tokenAddress,
        from: hot.address,
        to: w.destinationAddress,
        amount,
        feeLimitSun: pre.feeLimitSun,
        ref: head,
        lifetimeMs: TRON_TX_LIFETIME_MS,
      });
      signed = await signTronTx(unsigned, hot.privateKey, head.number);
    } catch (err) {
      const message = String((err as Error).message ?? err).split('\n')[0]!;
      await postpone(db, w, `Chain state could not be read (${message.slice(0, 120)}); retrying.`, now, delay);
      continue;
    }
    const stored = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(withdrawals).where(eq(withdrawals.id, w.id)).for('update');
      // Another pass sent it meanwhile, or it was failed or cancelled: this signature is never recorded nor sent.
      if (!locked || locked.status !== 'PENDING' || locked.txHash !== w.txHash) return null;
      const [row] = await tx
        .update(withdrawals)
        .set({
          status: 'PROCESSING',
          nonce: null,
          signedTx: JSON.stringify(signed.tx),
          txHash: signed.txId,
          txExpiration: signed.expiration,
          refBlockNumber: signed.refBlockNumber,
          gasPrice: null,
          pendingReason: null,
          sendAttempts: sql`${withdrawals.sendAttempts} + 1`,
          updatedAt: now,
        })
        .where(eq(withdrawals.id, w.id))
        .returning();
      return row!;
    });
    if (!stored) continue;
    await opts.beforeBroadcast?.(stored);
    try {
      await broadcastTronTx(client, signed);
      await db.update(withdrawals).set({ broadcastAt: new Date() }).where(eq(withdrawals.id, stored.id));
    } catch (err) {
      // Recorded: tracking looks it up and rebroadcasts the same bytes until it lands or is proven expired.
      log.warn('TRON withdrawal broadcast failed; tracking retries it', { withdrawalId: w.id, error: String((err as Error).message).slice(0, 300) });
    }
    sent++;
  }
  return sent;
}
