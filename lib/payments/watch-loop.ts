import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getNetworks, isEvmNetwork, isNetworkReady, type ReadyNetwork } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { publicClient } from '@/lib/chain/clients';
import { watchChain } from './watch-chain';

/** The longest a watcher goes without a full pass while the head stands still. */
const FULL_PASS_EVERY_MS = 2_000;

/**
 * The chain watcher as a job: polls each of the mode's networks every `pollMs` for
 * `runForMs` (a new block every 0.45 s on BSC, so one run covers many blocks
 * and detection stays well under a second). A mode without a configured
 * network is skipped. Errors are logged and retried on the next poll; the
 * cursor never moves past an unscanned block.
 */
export async function watchChainLoop(db: Db, mode: Mode, opts: { signal?: AbortSignal; runForMs?: number; pollMs?: number } = {}) {
  // One loop per enabled network, side by side: a slow or failing network never holds up another.
  await Promise.all(
    getNetworks(mode)
      .filter(isNetworkReady)
      .filter(isEvmNetwork)
      .map((net) => watchNetworkLoop(db, net, opts)),
  );
}

async function watchNetworkLoop(
  db: Db,
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress'>,
  opts: { signal?: AbortSignal; runForMs?: number; pollMs?: number },
) {
  const mode = net.mode;
  const until = Date.now() + (opts.runForMs ?? 55_000);
  // The head of the last full pass, and when it ended: a poll that finds the same head skips the pass (its
  // cursor, reorg and confirmation reads would all find the same), so an idle stack does not query the
  // database several times a second per network. A full pass still runs every FULL_PASS_EVERY_MS.
  let lastHead: bigint | undefined;
  let lastPassAt = 0;
  while (Date.now() < until && !opts.signal?.aborted) {
    try {
      // Nothing is recorded before the rail check has read the chain id and tokens (once per process);
      // a stopped network is not watched, a stopped token's contract not read.
      const checked = await checkedNetwork(net);
      if (checked && isNetworkReady(checked)) {
        const head = await publicClient(checked.rpcUrl).getBlockNumber();
        if (head !== lastHead || Date.now() - lastPassAt >= FULL_PASS_EVERY_MS) {
          await watchChain(db, checked, { signal: opts.signal });
          [lastHead, lastPassAt] = [head, Date.now()];
        }
      }
    } catch (err) {
      log.warn('chain watch failed', { mode, chain: net.chain, chainId: net.chainId, error: String((err as Error).message ?? err).slice(0, 300) });
      await sleep(1_000, opts.signal);
    }
    await sleep(opts.pollMs ?? 150, opts.signal);
  }
}
