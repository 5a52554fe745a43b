import { getAddress, isAddress, zeroAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';

const OWN_WALLETS = new WeakMap<Network, Set<string>>();

/** The gateway's own addresses on a network (lowercase); deriving them from keys is costly, so once per network object. */
function ownWallets(network: Network): Set<string> {
  let own = OWN_WALLETS.get(network);
  if (!own) {
    own = new Set(
      [
        network.feeWallet,
        network.gasWalletKey && privateKeyToAddress(network.gasWalletKey),
        network.hotWalletKey && privateKeyToAddress(network.hotWalletKey),
        network.faucetKey && privateKeyToAddress(network.faucetKey),
      ]
        .filter((a): a is `0x${string}` => Boolean(a))
        .map((a) => a.toLowerCase()),
    );
    OWN_WALLETS.set(network, own);
  }
  return own;
}

export function invalidDestination(message: string) {
  return new ApiError('invalid_address', `destinationAddress: ${message}`, [{ path: 'destinationAddress', message }]);
}

/**
 * The checks of a withdrawal destination that need no database: 20-byte hex,
 * checksum-valid when mixed case, not the zero address, not one of the
 * gateway's own wallets. Returns the checksummed form.
 */
export function parseDestination(network: Network, raw: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw invalidDestination('must be 0x followed by 40 hex characters');
  const mixedCase = raw.slice(2) !== raw.slice(2).toLowerCase() && raw.slice(2) !== raw.slice(2).toUpperCase();
  if (mixedCase && !isAddress(raw, { strict: true })) throw invalidDestination('has an invalid checksum (check for a typo)');
  const address = getAddress(raw.toLowerCase());
  if (address === zeroAddress) throw invalidDestination('must not be the zero address');
  if (ownWallets(network).has(address.toLowerCase())) throw invalidDestination("is one of the gateway's own wallets");
  return address;
}
