import { formatUnits, parseUnits } from 'viem';
import { tokensOf, type SolanaNetwork } from '@/lib/chain/network';
import { associatedTokenAccount } from '@/lib/chain/solana/associated-token-account';
import { solanaRpc, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { readSolanaTokenBalance } from '@/lib/chain/solana/token-balance';
import { solanaWalletSigner } from '@/lib/chain/solana/wallet-signer';
import { log } from '@/lib/log';
import { factsOf, readError, withTimeout, READ_TIMEOUT_MS, type GasWallet, type HotWallet, type NetworkWallets } from './read-network-wallets';

/** SOL: lamports are 9 decimals. */
const SOL_DECIMALS = 9;

const solOf = async (rpc: SolanaRpc, address: string) => BigInt((await rpc.call('getBalance', [address, { commitment: 'confirmed' }])).value);

/**
 * readNetworkWallets for a Solana network: the gas wallet's SOL (the sweeps' and withdrawals' fee payer; low below
 * SOLANA_GAS_WALLET_LOW_SOL) and the hot wallet's SOL and token accounts (0 when it has none yet), at `confirmed`.
 * Any failed or slow read makes the whole network unreadable, never 0.
 */
export async function readSolanaWallets(net: SolanaNetwork, timeoutMs = READ_TIMEOUT_MS): Promise<NetworkWallets> {
  const facts = factsOf(net);
  const gasAddress = net.gasWalletKey ? (await solanaWalletSigner(net.gasWalletKey)).address : null;
  const hotAddress = net.hotWalletKey ? (await solanaWalletSigner(net.hotWalletKey)).address : null;
  if (!net.rpcUrl || (!gasAddress && !hotAddress)) return { ...facts, state: 'not_configured' };
  const rpc = solanaRpc(net.rpcUrl, { timeoutMs });

  const readGas = async (address: string): Promise<GasWallet> => {
    const lamports = await solOf(rpc, address);
    return { address, balance: formatUnits(lamports, SOL_DECIMALS), low: lamports < parseUnits(facts.lowAt, SOL_DECIMALS) };
  };
  const readHot = async (address: NonNullable<typeof hotAddress>): Promise<HotWallet> => {
    const tokens = [];
    for (const t of tokensOf(net)) {
      const { units } = await readSolanaTokenBalance(rpc, await associatedTokenAccount(address, t.address), t.address, 'confirmed');
      tokens.push({ asset: t.asset, amount: formatUnits(units, t.decimals) });
    }
    return { address, balance: formatUnits(await solOf(rpc, address), SOL_DECIMALS), tokens };
  };

  try {
    const [gas, hot] = await withTimeout(Promise.all([gasAddress && readGas(gasAddress), hotAddress && readHot(hotAddress)]), timeoutMs);
    return { ...facts, state: 'ok', gas: gas || null, hot: hot || null };
  } catch (err) {
    const error = readError(err);
    log.warn('console wallet balance read failed', { mode: net.mode, chain: net.chain, error });
    return { ...facts, state: 'unreadable', error, gasAddress, hotAddress };
  }
}
