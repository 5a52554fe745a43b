import { getNetworks, type Network } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { MODES, type Mode } from '@/lib/mode';
import { errorLines, networkLines, type LineFigures, type TxHashes } from './network-lines';
import { readOwedSnapshot, readTxHashes, type OwedSnapshot } from './owed-snapshot';
import { pruneSolvencyRuns, recordSolvencyRun } from './record-run';
import { solvencyFamily } from './solvency-families';

export interface SolvencyOptions {
  modes?: readonly Mode[];
  /** Per network: the whole read (head, balances, receipts) must answer within this. */
  timeoutMs?: number;
}

/** A run that could not read every network: stored (with its error lines) and then thrown, so the job counts as failed. */
export class SolvencyReadError extends Error {
  constructor(
    message: string,
    readonly runId: string,
  ) {
    super(message);
    this.name = 'SolvencyReadError';
  }
}

/** A short reason without the RPC URL (viem's messages name it, and it may carry a provider key). */
function readError(err: unknown): string {
  const short = (err as { shortMessage?: unknown })?.shortMessage;
  if (typeof short === 'string' && short) return short.slice(0, 300);
  return (err instanceof Error ? err.message.split('\n')[0]! : String(err)).slice(0, 300);
}

/** Networks the job can read: an RPC URL and a hot wallet (the live mode of a development stack has neither). */
const readable = (net: Network) => Boolean(net.rpcUrl && net.hotWalletKey);

/**
 * One solvency run (lib/jobs/registry.ts runs it every SOLVENCY_EVERY_SECONDS): per mode, the database's
 * view of what is owed (owed-snapshot.ts) is read first, then each network's chain at its head block,
 * all networks side by side (a hung node costs only its own lines). held − owed per network and token,
 * and the gas wallet against its floor, are stored with alerts and operator events (record-run.ts).
 * Reading the database before choosing the block means every credit the snapshot holds was mined by that
 * block; withdrawals are judged by their receipts at that block, so one mined meanwhile is not a shortfall.
 * A failed read makes its lines `error` and the run an error (thrown after storing), never a zero.
 */
export async function runSolvency(db: Db, opts: SolvencyOptions = {}) {
  const startedAt = new Date();
  const lines: LineFigures[] = [];
  const unattributed: { mode: string; asset: string; amount: string }[] = [];
  for (const mode of opts.modes ?? MODES) {
    const nets = getNetworks(mode).filter(readable);
    if (nets.length === 0) continue;
    let snap: OwedSnapshot;
    try {
      snap = await readOwedSnapshot(db, mode);
    } catch (err) {
      for (const net of nets) lines.push(...errorLines(net, null, `database: ${readError(err)}`));
      continue;
    }
    for (const [asset, amount] of snap.unattributed) if (amount !== '0') unattributed.push({ mode, asset, amount });
    const perNetwork = await Promise.all(
      nets.map(async (net) => {
        try {
          const ids = snap.withdrawals.filter((w) => w.chainId === net.chainId).map((w) => w.id);
          const settlementIds = snap.held.filter((h) => h.chainId === net.chainId && h.settlementId).map((h) => h.settlementId!);
          let hashes: TxHashes = { withdrawals: new Map(), feeTxs: new Map() };
          // Read once the block is chosen: a withdrawal signed after the snapshot is still judged by its receipt.
          const load = async () => {
            hashes = await readTxHashes(db, ids, settlementIds);
            return [...[...hashes.withdrawals.values()].flat(), ...hashes.feeTxs.values()];
          };
          const chain = await solvencyFamily(net).readHoldings(net, snap.depositAddresses, load, { timeoutMs: opts.timeoutMs });
          return networkLines(net, snap, hashes, chain);
        } catch (err) {
          const error = readError(err);
          log.warn('solvency read failed', { mode, chain: net.chain, error });
          return errorLines(net, snap, error);
        }
      }),
    );
    lines.push(...perNetwork.flat());
  }
  const run = await recordSolvencyRun(db, { startedAt, lines, unattributed });
  await pruneSolvencyRuns(db, env().SOLVENCY_HISTORY_DAYS);
  if (run.status === 'error') throw new SolvencyReadError(`solvency run ${run.id}: ${run.error}`, run.id);
  return { runId: run.id, status: run.status, lines: lines.length };
}
