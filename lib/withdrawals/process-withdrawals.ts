import type { PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '@/lib/db';
import { publicClient } from '@/lib/chain/clients';
import { getNetwork, isNetworkReady, type Network } from '@/lib/chain/network';
import { MODES } from '@/lib/mode';
import type { LaneNetwork } from './lane-helpers';
import { sendPendingWithdrawals, type SendOptions } from './send-pending-withdrawals';
import { trackSentWithdrawals, type TrackOptions } from './track-sent-withdrawals';

export function isLaneReady(net: Network): net is LaneNetwork {
  return isNetworkReady(net) && net.hotWalletKey !== undefined;
}

/**
 * One pass of a hot wallet's sending lane: track what was sent, then send
 * what is due. The job lease guarantees a single runner per lane, so nonces
 * are reserved strictly in order.
 */
export async function processWithdrawals(db: Db, net: LaneNetwork, opts: SendOptions & TrackOptions & { client?: PublicClient } = {}) {
  const client = opts.client ?? publicClient(net.rpcUrl);
  const account = privateKeyToAccount(net.hotWalletKey);
  const tracked = await trackSentWithdrawals(db, net, client, account, opts);
  const sent = await sendPendingWithdrawals(db, net, client, account, opts);
  return { ...tracked, sent };
}

/** The scheduled job: every configured mode's lane. */
export async function processAllWithdrawals(db: Db) {
  for (const mode of MODES) {
    const net = getNetwork(mode);
    if (isLaneReady(net)) await processWithdrawals(db, net);
  }
}
