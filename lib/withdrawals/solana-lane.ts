import type { Db } from '@/lib/db';
import type { SolanaNetwork } from '@/lib/chain/network';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { solanaRpc, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { solanaWalletSigner } from '@/lib/chain/solana/wallet-signer';
import type { LaneNetwork } from './lane-helpers';
import type { SendOptions } from './run-send-lane';
import { sendPendingSolanaWithdrawals } from './solana-send';
import { trackSolanaWithdrawals } from './solana-track';
import type { TrackOptions } from './track-sent-withdrawals';

/**
 * One pass of a Solana hot wallet's lane (docs/solana.md §6.2): track what was sent, then send what is due, in the
 * order and under the lease of the other families' lanes. Nothing is sent before the rail check read the mints. The
 * gas wallet is the fee payer: the hot wallet needs no SOL.
 */
export async function processSolanaWithdrawals(
  db: Db,
  lane: LaneNetwork<SolanaNetwork>,
  opts: SendOptions & TrackOptions & { solanaRpc?: SolanaRpc } = {},
) {
  const net = await checkedNetwork(lane);
  if (!net) return { completed: 0, failed: 0, sent: 0 };
  if (!net.gasWalletKey) throw new Error(`${net.mode} ${net.chain}: no gas wallet key, which pays the withdrawals' fees`);
  const rpc = opts.solanaRpc ?? solanaRpc(net.rpcUrl);
  const wallets = { hot: await solanaWalletSigner(net.hotWalletKey), gas: await solanaWalletSigner(net.gasWalletKey) };
  const tracked = await trackSolanaWithdrawals(db, net, rpc, opts);
  const sent = await sendPendingSolanaWithdrawals(db, net, rpc, wallets, opts);
  return { ...tracked, sent };
}
