import { eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { TronStoredAddress } from '@/lib/chain/common/address-brand';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { buildTrc20Transfer, signTronTx, type SignedTronTx } from '@/lib/chain/tron/transactions';
import type { LaneNetwork } from './lane-helpers';
import type { TronNetwork } from '@/lib/chain/network';
import { runSendLane, type SendFamily, type SendOptions } from './run-send-lane';
import { tronPreflight } from './tron-preflight';

/** A few minutes: long enough for a slow broadcast to land, short enough that an unmined one is proven expired soon. */
export const TRON_TX_LIFETIME_MS = 180_000;

/**
 * TRON withdrawals in flight at once: no nonce orders them, each is its own signed transaction recorded before its
 * broadcast, so a payout's items go side by side (docs/payouts.md). A few, to spare the node.
 */
export const TRON_SEND_PARALLEL = 8;

export interface TronHotWallet {
  /** Hex private key without 0x (TronWeb's form); never logged. */
  privateKey: string;
  /** Stored `41…` form. */
  address: TronStoredAddress;
}

/** The recorded signed transaction back in the form broadcastTronTx and isSafelyExpired take. */
export function recordedTronTx(w: Withdrawal): SignedTronTx {
  return { txId: w.txHash!, tx: JSON.parse(w.signedTx!), expiration: w.txExpiration!, refBlockNumber: w.refBlockNumber! };
}

/**
 * Sends the due PENDING withdrawals of a TRON hot wallet (docs/tron.md §5; the lane, lib/withdrawals/run-send-lane.ts):
 * preflight (blacklist, USDT, energy and TRX, estimate), build the USDT transfer against the node's head block with a
 * lifetime of minutes, sign, store txID, signed transaction, expiration and reference block with status PROCESSING,
 * then broadcast. A crash after the store leaves a PROCESSING row whose exact bytes tracking rebroadcasts; a new
 * signature is made only after tracking proved the stored one can never be mined (isSafelyExpired) and put the
 * withdrawal back here.
 */
export async function sendPendingTronWithdrawals(
  db: Db,
  lane: LaneNetwork<TronNetwork>,
  client: TronNodeClient,
  hot: TronHotWallet,
  opts: SendOptions = {},
) {
  const tron: SendFamily<SignedTronTx, TronNetwork> = {
    async prepare(w, net, amount) {
      // The row holds the `T…` form createWithdrawal checked; the codec brands it (an EVM row here fails loudly).
      const to = TRON_ADDRESS_CODEC.parse(w.destinationAddress);
      // Read right before signing: the blacklist may have changed since the withdrawal was accepted.
      const pre = await tronPreflight(client, {
        token: net.tokenAddress,
        symbol: net.token,
        decimals: net.decimals,
        from: hot.address,
        to,
        amount,
      });
      if (pre.kind !== 'send') return pre;
      const { head } = await readTronHeads(client);
      const unsigned = await buildTrc20Transfer({
        token: net.tokenAddress,
        from: hot.address,
        to,
        amount,
        feeLimitSun: pre.feeLimitSun,
        ref: head,
        lifetimeMs: TRON_TX_LIFETIME_MS,
      });
      return { kind: 'send', signing: await signTronTx(unsigned, hot.privateKey, head.number) };
    },
    // Any error of the reads, the build or the signature (or of writing their decision) postpones: nothing is decided from it.
    unreadable(err) {
      return String((err as Error).message ?? err).split('\n')[0]!;
    },
    async record(_tx, locked, w, signed) {
      // The withdrawal was re-signed or sent meanwhile (a txHash other than the one read): this signature is never recorded nor sent.
      if (locked.txHash !== w.txHash) return null;
      return {
        nonce: null,
        signedTx: JSON.stringify(signed.tx),
        txHash: signed.txId,
        txExpiration: signed.expiration,
        refBlockNumber: signed.refBlockNumber,
        gasPrice: null,
      };
    },
    async broadcast(stored, signed) {
      try {
        await broadcastTronTx(client, signed);
        await db.update(withdrawals).set({ broadcastAt: new Date() }).where(eq(withdrawals.id, stored.id));
      } catch (err) {
        // Recorded: tracking looks it up and rebroadcasts the same bytes until it lands or is proven expired.
        log.warn('TRON withdrawal broadcast failed; tracking retries it', {
          withdrawalId: stored.id,
          error: String((err as Error).message).slice(0, 300),
        });
      }
    },
  };
  return runSendLane(db, lane, { ...tron, parallel: opts.parallel ?? TRON_SEND_PARALLEL }, opts);
}
