import { eq } from 'drizzle-orm';
import { gasCoinOf } from '@/lib/config/rails';
import { encodeFunctionData, erc20Abi, formatUnits, keccak256, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import type { EvmAddress } from '@/lib/chain/common/address-brand';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { reserveNonce } from '@/lib/chain/reserve-nonce';
import { freezeListCall, frozenFrom } from '@/lib/chain/freeze-list';
import { resultOf, rpcBatch, RpcReadError } from '@/lib/chain/rpc-batch';
import { transferData, type LaneNetwork } from './lane-helpers';
import type { EvmNetwork } from '@/lib/chain/network';
import { runSendLane, type SendFamily, type SendOptions } from './run-send-lane';
import { sendBatches } from './send-batches';

const REVERT = /revert|execution reverted|paused/i;

/**
 * The hot wallet's token and gas coin, the gas price, the transfer's gas
 * estimate and, where the token has one, its freeze list's answer for the destination, from one node in one batch: a revert is believed only beside that
 * node's own token balance, so a node behind the others cannot fail a
 * withdrawal the wallet can pay. A failed read throws (the pass ends, nothing changes).
 */
async function preflight(net: LaneNetwork<EvmNetwork>, from: EvmAddress, to: EvmAddress, data: Hex) {
  const frozenCall = freezeListCall(net, to);
  const [token, coin, price, estimate, frozen] = await rpcBatch(net.rpcUrl, [
    {
      method: 'eth_call',
      params: [{ to: net.tokenAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [from] }) }, 'latest'],
    },
    { method: 'eth_getBalance', params: [from, 'latest'] },
    { method: 'eth_gasPrice', params: [] },
    { method: 'eth_estimateGas', params: [{ from, to: net.tokenAddress, data }] },
    // The token's freeze list, read again right before signing: the issuer may have frozen the destination since.
    ...(frozenCall ? [frozenCall] : []),
  ]);
  return {
    tokenBalance: BigInt(resultOf(token!, 'balanceOf') as string),
    coin: BigInt(resultOf(coin!, 'eth_getBalance') as string),
    gasPrice: BigInt(resultOf(price!, 'eth_gasPrice') as string),
    estimate: estimate!,
    frozen: frozen ? frozenFrom(net, frozen) : false,
  };
}

/** What signing one EVM transfer needs, read before the record transaction. */
interface EvmSigning {
  net: LaneNetwork<EvmNetwork>;
  data: Hex;
  gas: bigint;
  gasPrice: bigint;
  /** The chain's pending count for the hot wallet: no nonce is reserved below it. */
  chainPending: number;
}

/**
 * Sends the due PENDING withdrawals of one hot wallet, one at a time (the
 * lane, lib/withdrawals/run-send-lane.ts): check funds, reserve the next nonce, sign, store the signed
 * transaction with status PROCESSING, then broadcast. A crash after the store
 * leaves a PROCESSING row whose exact bytes tracking re-broadcasts; nothing is
 * ever signed twice for one withdrawal.
 */
export async function sendPendingWithdrawals(
  db: Db,
  lane: LaneNetwork<EvmNetwork>,
  client: PublicClient,
  account: PrivateKeyAccount,
  opts: SendOptions = {},
) {
  const from = EVM_ADDRESS_CODEC.parse(account.address);
  const evm: SendFamily<EvmSigning, EvmNetwork> = {
    async prepare(w, net, amount) {
      // The row holds the EIP-55 form createWithdrawal checked; the codec brands it (a TRON row here fails loudly).
      const to = EVM_ADDRESS_CODEC.parse(w.destinationAddress);
      const data = transferData(to, amount);
      const pre = await preflight(net, from, to, data);
      if (pre.frozen) {
        return {
          kind: 'fail',
          reason: `The destination ${w.destinationAddress} is on the ${net.token} contract's blacklist: tokens sent there would be frozen.`,
        };
      }
      if (pre.tokenBalance < amount) {
        return {
          kind: 'wait',
          reason: `Hot wallet holds ${formatUnits(pre.tokenBalance, net.decimals)} ${net.token}, needs ${w.netAmount}; retrying.`,
        };
      }
      if (!pre.estimate.ok) {
        const message = pre.estimate.message;
        // The same node, at the same state, holds the tokens and still reverts the transfer: an answer, not a glitch.
        if (pre.estimate.code === 3 || REVERT.test(message)) {
          return { kind: 'fail', reason: `The token transfer would revert: ${message.split('\n')[0]!.slice(0, 200)}` };
        }
        return { kind: 'wait', reason: 'Could not estimate gas (RPC unavailable); retrying.' };
      }
      const { coin, gasPrice } = pre;
      let gas = BigInt(pre.estimate.result as string);
      gas = (gas * 12n) / 10n;
      if (coin < gas * gasPrice) return { kind: 'wait', reason: `Hot wallet lacks ${gasCoinOf(net.chain)} for gas; retrying.` };
      // Outside the batch: its failure is no RpcReadError, so it ends the pass rather than postponing.
      const chainPending = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      return { kind: 'send', signing: { net, data, gas, gasPrice, chainPending } };
    },
    unreadable(err) {
      if (!(err instanceof RpcReadError)) throw err;
      return err.message;
    },
    async record(tx, _locked, _w, { net, data, gas, gasPrice, chainPending }) {
      const nonce = await reserveNonce(tx, net.chainId, account.address.toLowerCase(), chainPending);
      const raw = await account.signTransaction({ type: 'legacy', chainId: net.chainId, nonce, to: net.tokenAddress, data, gas, gasPrice });
      return { nonce, signedTx: raw, txHash: keccak256(raw), gasPrice };
    },
    async broadcast(stored) {
      await broadcastRaw(client, stored.signedTx as Hex);
      await db.update(withdrawals).set({ broadcastAt: new Date() }).where(eq(withdrawals.id, stored.id));
    },
    // Payout items go through the disperse contract, many per transaction, where the network has one.
    ...(lane.disperseAddress ? { dueLimit: 1_000, sendTogether: (due) => sendBatches(db, lane, client, account, due, opts) } : {}),
  };
  return runSendLane(db, lane, evm, opts);
}
