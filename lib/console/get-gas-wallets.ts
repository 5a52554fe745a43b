import { getNetworks, onFamily, type Network, type PerFamily } from '@/lib/chain/network';
import { log } from '@/lib/log';
import { MODES, type Mode } from '@/lib/mode';
import { factsOf, readError, readNetworkWallets, READ_TIMEOUT_MS, type NetworkWallets } from './read-network-wallets';
import { readTronWallets } from './read-tron-wallets';
import { readSolanaWallets } from './read-solana-wallets';

export type { GasWallet, HotWallet, NetworkWallets, TokenBalance } from './read-network-wallets';

/** Each family's wallet read (TRON's energy wallet, stake and sweeps it can pay: read-tron-wallets.ts; Solana's SOL and token accounts: read-solana-wallets.ts). */
const READ_WALLETS: PerFamily<Network, [timeoutMs: number], Promise<NetworkWallets>> = {
  evm: (...a) => readNetworkWallets(...a),
  tron: (...a) => readTronWallets(...a),
  solana: (...a) => readSolanaWallets(...a),
};

/**
 * The gas and hot wallets of every enabled network of each mode (BSC first
 * within a mode): the gas wallet's native coin, which pays every sweep's
 * top-up (on TRON the energy wallet's TRX, stake and the sweeps it can pay:
 * read-tron-wallets.ts), and the hot wallet's native coin and enabled tokens, which pay
 * withdrawals. Networks are read in parallel, each on its own: one that fails
 * or is slow is "unreadable" (never a balance of 0) and the others still show.
 */
export async function getGasWallets(modes: readonly Mode[] = MODES, timeoutMs = READ_TIMEOUT_MS): Promise<NetworkWallets[]> {
  const networks = modes.flatMap((mode) => getNetworks(mode));
  const read = (net: Network) => onFamily(net, READ_WALLETS, timeoutMs);
  return Promise.all(networks.map((net) => read(net).catch((err: unknown) => unreadable(net, err))));
}

/** A network whose read threw before any RPC call (e.g. a malformed wallet key). */
function unreadable(net: Network, err: unknown): NetworkWallets {
  const error = readError(err);
  log.warn('console wallet balance read failed', { mode: net.mode, chain: net.chain, error });
  return { ...factsOf(net), state: 'unreadable', error, gasAddress: null, hotAddress: null };
}
