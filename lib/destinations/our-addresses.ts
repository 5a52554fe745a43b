import { privateKeyToAddress } from 'viem/accounts';
import { accountBytes } from '@/lib/chain/address-codecs';
import { tokensOf, type Network } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';

export interface OurAddresses {
  /** Fee, gas, hot and (test mode) faucet wallets of the network, as their 20 bytes (lower-case `0x…`). */
  wallets: Set<string>;
  /** The network's token contracts: every enabled one, and mainnet's of each token the network has, as their 20 bytes. */
  tokens: Set<string>;
}

const CACHE = new WeakMap<Network, OurAddresses>();

/**
 * This gateway's own addresses on one network: its wallets and its token contracts. Deriving an address
 * from a key costs an EC multiplication, so once per network object (the environment's are built once).
 * A network's own wallets, never BSC's: since every network has its own (docs/rails.md), the hot wallet
 * of Polygon is "ours" on Polygon, whatever BSC's is.
 */
export function ourAddresses(net: Network): OurAddresses {
  let found = CACHE.get(net);
  if (!found) {
    // By the 20 bytes: a TRON network writes its contracts and fee wallet `T…`, keys derive `0x…`.
    const lower = (a: string | undefined) => (a ? accountBytes(a) : undefined);
    const wallets = [
      net.feeWallet,
      net.gasWalletKey && privateKeyToAddress(net.gasWalletKey),
      net.hotWalletKey && privateKeyToAddress(net.hotWalletKey),
      net.faucetKey && privateKeyToAddress(net.faucetKey),
    ];
    const tokens = [...tokensOf(net).map((t) => t.address), ...Object.values(CHAIN_SPECS[net.chain].tokens).map((t) => t.mainnet)];
    found = {
      wallets: new Set<string>(wallets.map(lower).filter((a) => a !== undefined)),
      tokens: new Set<string>(tokens.map(lower).filter((a) => a !== undefined)),
    };
    CACHE.set(net, found);
  }
  return found;
}
