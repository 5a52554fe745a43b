import { sql } from 'drizzle-orm';
import { getAddress, isAddress, zeroAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { rowsOf, type Db } from '@/lib/db';
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

/**
 * A withdrawal destination: 20-byte hex, checksum-valid when mixed case, not
 * the zero address, not one of the gateway's own wallets or deposit addresses
 * (sending there would strand or loop funds). Returns the checksummed form.
 */
export async function validateDestination(db: Db, network: Network, raw: string): Promise<`0x${string}`> {
  const invalid = (message: string) =>
    new ApiError('invalid_address', `destinationAddress: ${message}`, [{ path: 'destinationAddress', message }]);
  if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw invalid('must be 0x followed by 40 hex characters');
  const mixedCase = raw.slice(2) !== raw.slice(2).toLowerCase() && raw.slice(2) !== raw.slice(2).toUpperCase();
  if (mixedCase && !isAddress(raw, { strict: true })) throw invalid('has an invalid checksum (check for a typo)');
  const address = getAddress(raw.toLowerCase());
  if (address === zeroAddress) throw invalid('must not be the zero address');
  if (ownWallets(network).has(address.toLowerCase())) throw invalid("is one of the gateway's own wallets");
  // Plain values only: this runs on every withdrawal, and a builder query costs more CPU to assemble than to run.
  const deposit = rowsOf(
    await db.execute(sql`select 1 from invoices where chain_id = ${network.chainId} and deposit_address = ${address.toLowerCase()} limit 1`),
  );
  if (deposit.length > 0) throw invalid("is a deposit address of this gateway");
  return address;
}
