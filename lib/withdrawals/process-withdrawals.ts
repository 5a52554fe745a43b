import type { Db } from '@/lib/db';
import type { PublicClient } from 'viem';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { getNetworks, isNetworkReady, onFamily, type Network, type PerFamily } from '@/lib/chain/network';
import { MODES } from '@/lib/mode';
import { perNetwork, type PerNetworkOptions } from '@/lib/chain/per-network';
import { processEvmWithdrawals } from './evm-lane';
import type { LaneNetwork } from './lane-helpers';
import type { SendOptions } from './run-send-lane';
import type { TrackOptions } from './track-sent-withdrawals';
import { processTronWithdrawals } from './tron-lane';
import type { SolanaRpc } from '@/lib/chain/solana/rpc';
import { processSolanaWithdrawals } from './solana-lane';

/** A lane pass's options: send and track tuning, and in tests the node client of either family. */
export type LaneOptions = SendOptions & TrackOptions & { client?: PublicClient; tronClient?: TronNodeClient; solanaRpc?: SolanaRpc };

/** Each family's lane (lazy bodies: the lanes import this module's types). */
const LANES: PerFamily<LaneNetwork, [db: Db, opts: LaneOptions], Promise<{ completed: number; failed: number; sent: number }>> = {
  evm: (lane, db, opts) => processEvmWithdrawals(db, lane, opts),
  tron: (lane, db, opts) => processTronWithdrawals(db, lane, opts),
  solana: (lane, db, opts) => processSolanaWithdrawals(db, lane, opts),
};

export function isLaneReady(net: Network): net is LaneNetwork {
  return isNetworkReady(net) && net.hotWalletKey !== undefined;
}

/**
 * One pass of a hot wallet's sending lane, by its family (LANES; EVM: evm-lane.ts; TRON, which has no nonces:
 * tron-lane.ts, docs/tron.md §5; Solana: solana-lane.ts, docs/solana.md §6.2): track what was sent, then send what is due; on a stopped network nothing, and
 * a stopped token's withdrawals wait (lib/chain/rail-gate.ts).
 */
export async function processWithdrawals(db: Db, lane: LaneNetwork, opts: LaneOptions = {}) {
  return onFamily(lane, LANES, db, opts);
}

/**
 * The scheduled job: every configured network's lane (one hot wallet each), every mode, side by side, so one
 * network's hung or failing node holds up only its own lane (lib/chain/per-network.ts).
 */
export async function processAllWithdrawals(db: Db, opts: PerNetworkOptions = {}) {
  const lanes = MODES.flatMap((m) => getNetworks(m)).filter(isLaneReady);
  await perNetwork('withdrawal lane', lanes, (net) => processWithdrawals(db, net), opts);
}
