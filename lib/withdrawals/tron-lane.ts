import { privateKeyToAddress } from 'viem/accounts';
import type { Db } from '@/lib/db';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import type { LaneNetwork } from './lane-helpers';
import type { TronNetwork } from '@/lib/chain/network';
import type { SendOptions } from './run-send-lane';
import type { TrackOptions } from './track-sent-withdrawals';
import { sendPendingTronWithdrawals } from './tron-send';
import { trackTronWithdrawals } from './tron-track';

/**
 * One pass of a TRON hot wallet's lane: track what was sent, then send what is due (the same order and lease as
 * the EVM lane, lib/withdrawals/process-withdrawals.ts). Nothing is sent before the rail check read the node's
 * chain id and the token's decimals and symbol.
 */
export async function processTronWithdrawals(
  db: Db,
  lane: LaneNetwork<TronNetwork>,
  opts: SendOptions & TrackOptions & { tronClient?: TronNodeClient } = {},
) {
  const net = await checkedNetwork(lane);
  if (!net) return { completed: 0, failed: 0, sent: 0 };
  const client = opts.tronClient ?? tronClientOf(net);
  // The hot wallet's TRON account is its key's 20 bytes behind 0x41.
  const hot = { privateKey: net.hotWalletKey.slice(2), address: TRON_ADDRESS_CODEC.storedForm(privateKeyToAddress(net.hotWalletKey)) };
  const tracked = await trackTronWithdrawals(db, net, client, opts);
  const sent = await sendPendingTronWithdrawals(db, net, client, hot, opts);
  return { ...tracked, sent };
}
