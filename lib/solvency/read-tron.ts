import { formatUnits } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { tokensOf, type TronNetwork } from '@/lib/chain/network';
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
 * reads at the head only (no balance at a past block), so the head is read first and every balance after it, and
 * a transaction counts as mined only at or below that head: a withdrawal mined after the balances were read is
 * still held in them, so it must not count as gone too (issue 42). A withdrawal mined between the head read and
 * its balance read is then counted as owed and not held: a shortfall for one run, never a surplus. Any failed or malformed read throws: an error line, never a zero.
 */
export async function readTronHoldings(
  net: TronNetwork,
  deposits: Map<string, Set<string>>,
  loadHashes: () => Promise<string[]>,
  opts: { timeoutMs?: number } = {},
): Promise<ChainHoldings> {
  if (!net.rpcUrl || !net.hotWalletKey) throw new RpcReadError(`${net.mode} ${net.chain}: no node URL or hot wallet configured`);
  const client = tronClientOf(net, opts.timeoutMs ?? 15_000);
  const hot = toHex41(privateKeyToAddress(net.hotWalletKey));
  // The balances are read at the head between two reads of it; a block landing meanwhile makes them a mix of
  // two blocks, so they are read again (a few times; then they stand, and only the receipt bound below holds).
  let head = 0;
  let hotBalances = new Map<string, string>();
  let depositBalances = new Map<string, string>();
  for (let attempt = 0; attempt < 3; attempt++) {
    head = (await readTronHeads(client)).head.number;
    hotBalances = new Map();
    depositBalances = new Map();
    for (const t of tokensOf(net)) {
      hotBalances.set(t.asset, formatUnits(await readTrc20Balance(client, t.address, hot), t.decimals));
      for (const address of deposits.get(`${net.chainId}:${t.asset}`) ?? []) {
        depositBalances.set(`${t.asset}:${address}`, formatUnits(await readTrc20Balance(client, t.address, address), t.decimals));
      }
    }
    if ((await readTronHeads(client)).head.number === head) break;
  }
  // After the head is chosen: a transaction mined by it was recorded (before broadcast) by now.
  const hashes = await loadHashes();
  let energy: ChainHoldings['energy'] = null;
  if (net.gasWalletKey) {
    const address = toHex41(privateKeyToAddress(net.gasWalletKey));
    const stake = await readTronStake(client, address);
    energy = { address: toBase58(address), trx: formatUnits(stake.balanceSun, 6), sweeps: sweepsAffordable(stake, ENERGY_WALLET_RESERVE_SUN) };
  }
  const mined = new Set<string>();
  for (const hash of new Set(hashes.map((h) => h.toLowerCase()))) {
    const found = await lookupTronTx(client, hash);
    // Only what was mined by the block the balances were read after, as the EVM reader does: a withdrawal mined
    // later left the hot wallet after its balance was read, and is still held there in these figures.
    if (found.state !== 'unknown' && found.info.ok && found.info.blockNumber <= head) mined.add(hash);
  }
  return { blockNumber: head, hot: toBase58(hot), hotBalances, depositBalances, gas: null, energy, mined };
}
