import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { parseUnits, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import type { ReadyNetwork, TronNetwork } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { buildTrc20Transfer, signTronTx } from '@/lib/chain/tron/transactions';

/** TRX the faucet may burn for the transfer's energy: ~124,000 energy to a new holder at 100 sun each is 12.4 TRX. */
const FEE_LIMIT_SUN = 30_000_000;
/** A test payment not packed within a minute is dropped by the node (nothing to track: the caller may pay again). */
const LIFETIME_MS = 60_000;

/**
 * The test helper's payment on TRON: a TRC-20 USDT `transfer` from the test faucet (the network's
 * `faucetKey`, the same secp256k1 key as its TRON account), built and signed by TronWeb against the
 * node's head block and broadcast; the watcher finds it like any customer's. Answers once the node
 * accepted it. No nonces on TRON: concurrent calls need no queue.
 */
export async function payTronTestInvoice(
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'faucetKey', TronNetwork>,
  depositAddress: string,
  amount: string,
): Promise<{ txHash: string; from: string; to: string }> {
  const client = tronClientOf(net, 10_000);
  const from = toHex41(privateKeyToAddress(net.faucetKey));
  const { head } = await readTronHeads(client, net.confirmations);
  const unsigned = await buildTrc20Transfer({
    token: net.tokenAddress,
    from,
    to: TRON_ADDRESS_CODEC.parseStored(depositAddress),
    amount: parseUnits(amount, net.decimals),
    feeLimitSun: FEE_LIMIT_SUN,
    ref: head,
    lifetimeMs: LIFETIME_MS,
  });
  const signed = await signTronTx(unsigned, keyOf(net.faucetKey), head.number);
  await broadcastTronTx(client, signed);
  return { txHash: signed.txId, from: toBase58(from), to: toBase58(depositAddress) };
}

const keyOf = (key: Hex) => key.slice(2);
