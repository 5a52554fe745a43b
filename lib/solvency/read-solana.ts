import { formatUnits } from 'viem';
import { tokensOf, type SolanaNetwork } from '@/lib/chain/network';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import { SOLANA_GAS_WALLET_LOW_SOL } from '@/lib/chain/solana/gas-wallet-low';
import { associatedTokenAccount } from '@/lib/chain/solana/associated-token-account';
import { SolanaRpcError, solanaRpc } from '@/lib/chain/solana/rpc';
import { readSolanaTokenBalance } from '@/lib/chain/solana/token-balance';
import { solanaWalletSigner } from '@/lib/chain/solana/wallet-signer';
import { Decimal } from '@/lib/money';
import { nativeCoin, type GasFloor } from './network-lines';
import type { ChainHoldings } from './read-chain';

/** SOL: lamports are 9 decimals. */
const SOL_DECIMALS = 9;

/** The gas line of a Solana network: the gas wallet's SOL against its floor (solvency-families.ts). */
export const solanaGasFloor = (net: SolanaNetwork): GasFloor => ({ asset: nativeCoin(net), floor: new Decimal(SOLANA_GAS_WALLET_LOW_SOL).toFixed() });

/**
 * readChainHoldings for a Solana network: each token of the hot wallet's and of the listed deposit owners' associated
 * token accounts (0 once closed by a sweep), the gas wallet's SOL, and which of the given signatures landed without
 * error. Everything is read at `finalized`. A node answers at its own slot per read and cannot read a past slot, so
 * the network's block is the lowest slot the hot wallet's reads answered at, and a signature counts as landed only
 * at or below it: a withdrawal finalized after a balance was read is still held there, so it must not count as gone
 * too (the rule TRON's reader follows). One finalized in between is owed and not held for one run: a shortfall, never
 * a surplus. Any failed or malformed read throws: an error line, never a zero.
 */
export async function readSolanaHoldings(
  net: SolanaNetwork,
  deposits: Map<string, Set<string>>,
  loadHashes: () => Promise<string[]>,
  opts: { timeoutMs?: number } = {},
): Promise<ChainHoldings> {
  if (!net.rpcUrl || !net.hotWalletKey) throw new RpcReadError(`${net.mode} ${net.chain}: no node URL or hot wallet configured`);
  try {
    return await read(net, net.rpcUrl, net.hotWalletKey, deposits, loadHashes, opts.timeoutMs ?? 15_000);
  } catch (err) {
    if (err instanceof SolanaRpcError) throw new RpcReadError(err.message, { cause: err });
    throw err;
  }
}

async function read(
  net: SolanaNetwork,
  rpcUrl: string,
  hotKey: `0x${string}`,
  deposits: Map<string, Set<string>>,
  loadHashes: () => Promise<string[]>,
  timeoutMs: number,
): Promise<ChainHoldings> {
  const rpc = solanaRpc(rpcUrl, { timeoutMs });
  const hot = (await solanaWalletSigner(hotKey)).address;
  const hotBalances = new Map<string, string>();
  const depositBalances = new Map<string, string>();
  let slot = Number.MAX_SAFE_INTEGER;
  for (const t of tokensOf(net)) {
    const held = await readSolanaTokenBalance(rpc, await associatedTokenAccount(hot, t.address), t.address);
    slot = Math.min(slot, held.slot);
    hotBalances.set(t.asset, formatUnits(held.units, t.decimals));
    for (const address of deposits.get(`${net.chainId}:${t.asset}`) ?? []) {
      const owner = ADDRESS_CODECS.solana.parse(address);
      const { units } = await readSolanaTokenBalance(rpc, await associatedTokenAccount(owner, t.address), t.address);
      depositBalances.set(`${t.asset}:${address}`, formatUnits(units, t.decimals));
    }
  }
  if (slot === Number.MAX_SAFE_INTEGER) slot = await rpc.call('getSlot', [{ commitment: 'finalized' }]);
  // After the balances: a transaction landed by then was recorded (its bytes stored before broadcast) by now.
  const hashes = [...new Set(await loadHashes())];
  let gas: ChainHoldings['gas'] = null;
  if (net.gasWalletKey) {
    const address = (await solanaWalletSigner(net.gasWalletKey)).address;
    const { value } = await rpc.call('getBalance', [address, { commitment: 'finalized' }]);
    gas = { address, balance: formatUnits(BigInt(value), SOL_DECIMALS) };
  }
  const mined = new Set<string>();
  for (let i = 0; i < hashes.length; i += 256) {
    const batch = hashes.slice(i, i + 256);
    const { value } = await rpc.call('getSignatureStatuses', [batch, { searchTransactionHistory: true }]);
    if (value.length !== batch.length) throw new SolanaRpcError('getSignatureStatuses', `asked for ${batch.length} statuses, got ${value.length}`);
    // Lowercase, as networkLines looks them up (hex hashes on the other families); the status is read with the real case.
    batch.forEach((h, j) => {
      const s = value[j];
      if (s && s.err === null && s.confirmationStatus === 'finalized' && s.slot <= slot) mined.add(h.toLowerCase());
    });
  }
  return { blockNumber: slot, hot, hotBalances, depositBalances, gas, mined };
}
