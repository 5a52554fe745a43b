import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { isBlackListed } from '@/lib/chain/tron/resources';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { log } from '@/lib/log';

/**
 * TRON's USDT has Tether's blacklist: the contract itself refuses to move a blacklisted holder's tokens, so money
 * sent there is frozen for good. Read from the token contract on the network the money would move on (every
 * withdrawal, refund and send-back to a `T…` address, before anything is written): a listed destination is
 * 400 `destination_blacklisted`; a failed read is a 503 and nothing changes (never "not listed" by default).
 * Other families: nothing to read.
 */
export async function refuseBlacklisted(net: Network, destination: string, path = 'destinationAddress'): Promise<void> {
  if (CHAIN_SPECS[net.chain].family !== 'tron' || !net.tokenAddress) return;
  let listed: boolean;
  try {
    listed = await isBlackListed(tronClientOf(net), net.tokenAddress, destination);
  } catch (err) {
    log.warn('blacklist read failed', { chain: net.chain, error: String((err as Error).message ?? err).slice(0, 300) });
    throw new ApiError(
      'service_unavailable',
      `Could not read whether ${destination} is on the ${net.token} blacklist on ${CHAIN_SPECS[net.chain].name}; nothing was changed, try again.`,
    );
  }
  if (listed) {
    const message = `is on the ${net.token} contract's blacklist on ${CHAIN_SPECS[net.chain].name}: tokens sent there are frozen and lost`;
    throw new ApiError('destination_blacklisted', `${path}: ${message}`, [{ path, message }]);
  }
}
