import type { PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '@/lib/db';
import { publicClient } from '@/lib/chain/clients';
import { getNetworks, isEvmNetwork, isNetworkReady, type Network } from '@/lib/chain/network';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { MODES } from '@/lib/mode';
import { perNetwork, type PerNetworkOptions } from '@/lib/chain/per-network';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import type { LaneNetwork } from './lane-helpers';
import type { SendOptions } from './run-send-lane';
import { sendPendingWithdrawals } from './send-pending-withdrawals';
import { trackSentWithdrawals, type TrackOptions } from './track-sent-withdrawals';
import { processTronWithdrawals } from './tron-lane';

export function isLaneReady(net: Network): net is LaneNetwork {
  return isNetworkReady(net) && net.hotWalletKey !== undefined;
}

/**
 * One pass of a hot wallet's sending lane (EVM here; TRON in tron-lane.ts): track what was sent, then send
 * what is due; on a stopped network nothing, and a stopped token's withdrawals wait (lib/chain/rail-gate.ts). The job lease guarantees a single runner per lane, so nonces
 * are reserved strictly in order.
 */
export async function processWithdrawals(
  db: Db,
  lane: LaneNetwork,
  opts: SendOptions & TrackOptions & { client?: PublicClient; tronClient?: TronNodeClient } = {},
) {
  // TRON has no nonces: its own lane (lib/withdrawals/tron-lane.ts, docs/tron.md §5).
  if (!isEvmNetwork(lane)) return processTronWithdrawals(db, lane, opts);
  // Nothing is sent before the rail check has read this network's chain id and tokens (once per process).
  const net = await checkedNetwork(lane);
  if (!net) return { completed: 0, failed: 0, sent: 0 };
  const client = opts.client ?? publicClient(net.rpcUrl);
  const account = privateKeyToAccount(net.hotWalletKey);
  const tracked = await trackSentWithdrawals(db, net, client, account, opts);
  const sent = await sendPendingWithdrawals(db, net, client, account, opts);
  return { ...tracked, sent };
}

/**
 * The scheduled job: every configured network's lane (one hot wallet each), every mode, side by side, so one
 * network's hung or failing node holds up only its own lane (lib/chain/per-network.ts).
 */
export async function processAllWithdrawals(db: Db, opts: PerNetworkOptions = {}) {
  const lanes = MODES.flatMap((m) => getNetworks(m)).filter(isLaneReady);
  await perNetwork('withdrawal lane', lanes, (net) => processWithdrawals(db, net), opts);
}
