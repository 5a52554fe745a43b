import { accountBytes } from '@/lib/chain/address-codecs';
import { familyOps } from '@/lib/chain/families';
import { tokensOf, type Network } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';

export interface OurAddresses {
  /** Fee, gas, hot and (test mode) faucet wallets of the network, as their bytes (lower-case `0x…`: 20, 32 on Solana). */
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
    // By the account's bytes: a TRON network writes its contracts and fee wallet `T…`, keys derive `0x…`; the specs'
    // mainnet contracts (and Solana's mints) are given as their bytes already, `0x` + hex.
    const lower = (a: string | undefined) => (!a ? undefined : /^0x[0-9a-fA-F]+$/.test(a) ? a.toLowerCase() : accountBytes(a));
    // Each key as its family derives it (secp256k1 on EVM and TRON, ed25519 on Solana).
    const key = (k: `0x${string}` | undefined) => (k ? familyOps(net.chain).walletAddress(k) : undefined);
    const wallets = [net.feeWallet, key(net.gasWalletKey), key(net.hotWalletKey), key(net.faucetKey)];
    const tokens = [...tokensOf(net).map((t) => t.address), ...Object.values(CHAIN_SPECS[net.chain].tokens).map((t) => t.mainnet)];
    found = {
      wallets: new Set<string>(wallets.map(lower).filter((a) => a !== undefined)),
      tokens: new Set<string>(tokens.map(lower).filter((a) => a !== undefined)),
    };
    CACHE.set(net, found);
  }
  return found;
}
