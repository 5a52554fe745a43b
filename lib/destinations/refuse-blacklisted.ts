import { ApiError } from '@/lib/api/errors';
import type { WireAddress } from '@/lib/chain/common/address-brand';
import { isFrozen } from '@/lib/chain/freeze-list';
import type { Network } from '@/lib/chain/network';
import { CHAIN_SPECS, freezeListOf } from '@/lib/config/rails';
import { log } from '@/lib/log';

/**
 * Tether's and Circle's freeze lists (issue 42 §2): USDT on Ethereum and TRON (`isBlackListed`), on Arbitrum and
 * Polygon (`isBlocked`), USDC wherever Circle issues it (`isBlacklisted`); which function each rail has is in
 * lib/config/rails.ts. The contract refuses to move a frozen holder's tokens, so money sent there is lost. Read
 * from the token contract on the network the money would move on (every withdrawal, refund, claim link, payer
 * proposal and send-back, before anything is written; the sending lane reads it again right before signing): a
 * listed destination is 400 `destination_blacklisted`; a failed read is a 503 and nothing changes (never "not
 * listed" by default). A token without a list: nothing to read.
 */
export async function refuseBlacklisted(net: Network, destination: WireAddress, path = 'destinationAddress'): Promise<void> {
  if (!freezeListOf(net.chain, net.token)) return;
  let listed: boolean | null;
  try {
    listed = await isFrozen(net, destination);
  } catch (err) {
    log.warn('freeze list read failed', { chain: net.chain, token: net.token, error: String((err as Error).message ?? err).slice(0, 300) });
    throw new ApiError(
      'service_unavailable',
      `Could not read whether ${destination} is on the ${net.token} contract's blacklist on ${CHAIN_SPECS[net.chain].name}; nothing was changed, try again.`,
    );
  }
  if (listed) {
    const message = `is on the ${net.token} contract's blacklist on ${CHAIN_SPECS[net.chain].name}: tokens sent there are frozen and lost`;
    throw new ApiError('destination_blacklisted', `${path}: ${message}`, [{ path, message }]);
  }
}
