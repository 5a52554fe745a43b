import { eq } from 'drizzle-orm';
import type { KeyPairSigner } from '@solana/kit';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { SolanaNetwork } from '@/lib/chain/network';
import { SOLANA_ADDRESS_CODEC } from '@/lib/chain/solana/address-codec';
import { broadcastSolanaTransaction } from '@/lib/chain/solana/broadcast-transaction';
import type { SignedSolanaTransaction } from '@/lib/chain/solana/build-sweep';
import { buildSolanaWithdrawal } from '@/lib/chain/solana/build-withdrawal';
import { planSolanaWithdrawal } from '@/lib/chain/solana/plan-withdrawal';
import type { SolanaRpc } from '@/lib/chain/solana/rpc';
import type { LaneNetwork } from './lane-helpers';
import { runSendLane, type SendFamily, type SendOptions } from './run-send-lane';

/** Withdrawals in flight at once: no nonce orders them (each transaction has its own blockhash lifetime). A few, to spare the node. */
export const SOLANA_SEND_PARALLEL = 8;

export interface SolanaWallets {
  /** The hot wallet: owns the tokens, signs the transfer. */
  hot: KeyPairSigner;
  /** The gas wallet: the fee payer, and the payer of a destination token account's rent. */
  gas: KeyPairSigner;
}

/** The stored signed transaction back in the form broadcast and judge take (wire bytes, signature, lastValidBlockHeight). */
export function recordedSolanaTx(w: Withdrawal): SignedSolanaTransaction {
  return { signature: w.txHash!, wire: w.signedTx!, lastValidBlockHeight: w.txExpiration! };
}

/**
 * Sends the due PENDING withdrawals of a Solana hot wallet (docs/solana.md §6.2; the lane, run-send-lane.ts): the
 * destination judged again and the wallets' balances read (planSolanaWithdrawal), then [create the destination's
 * associated token account when missing] + transferChecked + a memo of its id, the hot wallet signing for the tokens and the gas wallet
 * as fee payer; signature, wire bytes and lastValidBlockHeight (in txExpiration) stored with status PROCESSING, then
 * broadcast. A crash after the store leaves exact bytes that tracking re-sends; a new signature is made only after
 * tracking found the stored one safely expired (judgeSentTransaction) and put the withdrawal back here.
 */
export async function sendPendingSolanaWithdrawals(
  db: Db,
  lane: LaneNetwork<SolanaNetwork>,
  rpc: SolanaRpc,
  wallets: SolanaWallets,
  opts: SendOptions = {},
) {
  const solana: SendFamily<SignedSolanaTransaction, SolanaNetwork> = {
    async prepare(w, net, amount) {
      const decision = await planSolanaWithdrawal(rpc, {
        hot: wallets.hot.address,
        gas: wallets.gas.address,
        mint: SOLANA_ADDRESS_CODEC.parse(net.tokenAddress),
        decimals: net.decimals,
        symbol: net.token,
        destination: w.destinationAddress,
        amount,
      });
      if (decision.kind !== 'send') return decision;
      // The memo (the withdrawal's id) keeps two like withdrawals under one blockhash from being one transaction.
      return { kind: 'send', signing: await buildSolanaWithdrawal(decision.plan, w.id, { owner: wallets.hot, feePayer: wallets.gas }) };
    },
    // Any error of the reads, the build or the signature postpones: nothing is decided from it.
    unreadable(err) {
      return String((err as Error).message ?? err).split('\n')[0]!;
    },
    async record(_tx, locked, w, signed) {
      // Re-signed or sent meanwhile: this signature is never recorded nor sent.
      if (locked.txHash !== w.txHash) return null;
      return { nonce: null, signedTx: signed.wire, txHash: signed.signature, txExpiration: signed.lastValidBlockHeight, gasPrice: null };
    },
    async broadcast(stored, signed) {
      try {
        await broadcastSolanaTransaction(rpc, signed);
        await db.update(withdrawals).set({ broadcastAt: new Date() }).where(eq(withdrawals.id, stored.id));
      } catch (err) {
        // Recorded: tracking judges it and re-sends the same bytes until it lands or is safely expired.
        log.warn('Solana withdrawal broadcast failed; tracking retries it', {
          withdrawalId: stored.id,
          error: String((err as Error).message).slice(0, 300),
        });
      }
    },
  };
  return runSendLane(db, lane, { ...solana, parallel: opts.parallel ?? SOLANA_SEND_PARALLEL }, opts);
}
