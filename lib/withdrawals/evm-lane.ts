import { privateKeyToAccount } from 'viem/accounts';
import type { Db } from '@/lib/db';
import { publicClient } from '@/lib/chain/clients';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import type { LaneNetwork } from './lane-helpers';
import type { EvmNetwork } from '@/lib/chain/network';
import type { LaneOptions } from './process-withdrawals';
import { sendPendingWithdrawals } from './send-pending-withdrawals';
import { trackSentWithdrawals } from './track-sent-withdrawals';

/**
 * One pass of an EVM hot wallet's lane (TRON's: tron-lane.ts): track what was sent, then send what is due. The
 * job lease guarantees a single runner per lane, so nonces are reserved strictly in order.
 */
export async function processEvmWithdrawals(db: Db, lane: LaneNetwork<EvmNetwork>, opts: LaneOptions = {}) {
  // Nothing is sent before the rail check has read this network's chain id and tokens (once per process).
  const net = await checkedNetwork(lane);
  if (!net) return { completed: 0, failed: 0, sent: 0 };
  const client = opts.client ?? publicClient(net.rpcUrl);
  const account = privateKeyToAccount(net.hotWalletKey);
  const tracked = await trackSentWithdrawals(db, net, client, account, opts);
  const sent = await sendPendingWithdrawals(db, net, client, account, opts);
  return { ...tracked, sent };
}
