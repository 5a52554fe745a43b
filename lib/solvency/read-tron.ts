import { formatUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { tokensOf, type Network } from '@/lib/chain/network';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { lookupTronTx } from '@/lib/chain/tron/broadcast';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { ENERGY_WALLET_RESERVE_SUN, readTronStake, sweepsAffordable } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import type { ChainHoldings } from './read-chain';

/**
 * readChainHoldings for a TRON network: USDT of the hot wallet and the listed deposit addresses, the energy
 * wallet's TRX and the sweeps its stake can pay, and which of the given transactions succeeded. TRON's HTTP API
 * reads at the head only (no balance at a past block), so the head is read first and every balance after it:
 * money moving meanwhile is seen where it arrived, and a withdrawal mined meanwhile is judged by its
 * transaction, as on EVM. Any failed or malformed read throws: an error line, never a zero.
 */
export async function readTronHoldings(
  net: Network,
  deposits: Map<string, Set<string>>,
  loadHashes: () => Promise<string[]>,
  opts: { timeoutMs?: number } = {},
): Promise<ChainHoldings> {
  if (!net.rpcUrl || !net.hotWalletKey) throw new RpcReadError(`${net.mode} ${net.chain}: no node URL or hot wallet configured`);
  const client = tronClientOf(net, opts.timeoutMs ?? 15_000);
  const { head } = await readTronHeads(client);
  const hashes = await loadHashes();
  const hot = toHex41(privateKeyToAddress(net.hotWalletKey));
  const hotBalances = new Map<string, string>();
  const depositBalances = new Map<string, string>();
  for (const t of tokensOf(net)) {
    hotBalances.set(t.asset, formatUnits(await readTrc20Balance(client, t.address, hot), t.decimals));
    for (const address of deposits.get(`${net.chainId}:${t.asset}`) ?? []) {
      depositBalances.set(`${t.asset}:${address}`, formatUnits(await readTrc20Balance(client, t.address, address), t.decimals));
    }
  }
  let energy: ChainHoldings['energy'] = null;
  if (net.gasWalletKey) {
    const address = toHex41(privateKeyToAddress(net.gasWalletKey));
    const stake = await readTronStake(client, address);
    energy = { address: toBase58(address), trx: formatUnits(stake.balanceSun, 6), sweeps: sweepsAffordable(stake, ENERGY_WALLET_RESERVE_SUN) };
  }
  const mined = new Set<string>();
  for (const hash of new Set(hashes.map((h) => h.toLowerCase()))) {
    const found = await lookupTronTx(client, hash);
    if (found.state !== 'unknown' && found.info.ok) mined.add(hash);
  }
  return { blockNumber: head.number, hot: toBase58(hot), hotBalances, depositBalances, gas: null, energy, mined };
}
