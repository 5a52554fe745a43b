import { ApiError } from '@/lib/api/errors';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import type { WireAddress } from '@/lib/chain/common/address-brand';
import { familyOps } from '@/lib/chain/families';
import type { Network } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { log } from '@/lib/log';

/**
 * Refuses a destination the chain will not let receive the rail's token (FamilyOps.judgeDestination; Solana: a
 * token account that is not its owner's associated one, another token's account, a frozen one, a mint, a program…),
 * 400 with the rule's code and sentence, before anything is written. A failed read is a 503 and nothing changes:
 * never "it can receive" by default. The sending lane judges it again right before signing.
 */
export async function refuseUnreceivable(net: Network, destination: WireAddress, path = 'destinationAddress'): Promise<void> {
  let refusal;
  try {
    refusal = await familyOps(net.chain).judgeDestination(net, ADDRESS_CODECS[net.family].parse(destination));
  } catch (err) {
    log.warn('destination read failed', { chain: net.chain, token: net.token, error: String((err as Error).message ?? err).slice(0, 300) });
    throw new ApiError(
      'service_unavailable',
      `Could not read whether ${destination} can receive ${net.token} on ${CHAIN_SPECS[net.chain].name}; nothing was changed, try again.`,
    );
  }
  if (refusal) throw new ApiError(refusal.code, `${path}: ${refusal.reason}`, [{ path, message: refusal.reason }]);
}
