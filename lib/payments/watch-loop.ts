import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getNetworks, isNetworkReady, type ReadyNetwork } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { watchChain } from './watch-chain';

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
  while (Date.now() < until && !opts.signal?.aborted) {
    try {
      // Nothing is recorded before the rail check has read the chain id and tokens (once per process);
      // a stopped network is not watched, a stopped token's contract not read.
      const checked = await checkedNetwork(net);
      if (checked && isNetworkReady(checked)) await watchChain(db, checked, { signal: opts.signal });
    } catch (err) {
      log.warn('chain watch failed', { mode, chain: net.chain, chainId: net.chainId, error: String((err as Error).message ?? err).slice(0, 300) });
      await sleep(1_000, opts.signal);
    }
    await sleep(opts.pollMs ?? 150, opts.signal);
  }
}
