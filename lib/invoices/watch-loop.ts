import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getNetwork, isNetworkReady } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { watchChain } from './watch-chain';

/**
 * The chain watcher as a job: polls the mode's network every `pollMs` for
 * `runForMs` (a new block every 0.45 s on BSC, so one run covers many blocks
 * and detection stays well under a second). A mode without a configured
 * network is skipped. Errors are logged and retried on the next poll; the
 * cursor never moves past an unscanned block.
 */
export async function watchChainLoop(db: Db, mode: Mode, opts: { signal?: AbortSignal; runForMs?: number; pollMs?: number } = {}) {
  const net = getNetwork(mode);
  if (!isNetworkReady(net)) return;
  const until = Date.now() + (opts.runForMs ?? 55_000);
  while (Date.now() < until && !opts.signal?.aborted) {
    try {
      await watchChain(db, net, { signal: opts.signal });
    } catch (err) {
      log.warn('chain watch failed', { mode, chainId: net.chainId, error: String((err as Error).message ?? err).slice(0, 300) });
      await sleep(1_000, opts.signal);
    }
    await sleep(opts.pollMs ?? 150, opts.signal);
  }
}
