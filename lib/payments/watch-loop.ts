import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getNetworks, isNetworkReady } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { watchFamily, type Watcher, type WatchNetwork } from './watch-families';

/** The longest a watcher goes without a full pass while the head stands still. */
const FULL_PASS_EVERY_MS = 2_000;

type LoopOptions = { signal?: AbortSignal; runForMs?: number; pollMs?: number };

/**
 * The chain watcher as a job: polls each of the mode's networks for `runForMs`, each in a loop of its own
 * side by side (a slow, failing or hung node holds up no other network), each by its family's watcher.
 * A mode without a configured network is skipped. Errors are logged and retried on the next poll; the
 * cursor never moves past an unscanned block.
 */
export async function watchChainLoop(db: Db, mode: Mode, opts: LoopOptions = {}) {
  await Promise.all(
    getNetworks(mode)
      .filter(isNetworkReady)
      .map((net) => watchNetworkLoop(db, net, opts)),
  );
}

async function watchNetworkLoop(db: Db, net: WatchNetwork, opts: LoopOptions) {
  const mode = net.mode;
  // Each family's watcher and default poll (watch-families.ts).
  const family = watchFamily(net);
  const until = Date.now() + (opts.runForMs ?? 55_000);
  // The head of the last full pass, and when it ended: a poll that finds the same head skips the pass (its
  // cursor, reorg and confirmation reads would all find the same), so an idle stack does not query the
  // database several times a second per network. A full pass still runs every FULL_PASS_EVERY_MS.
  let lastHead: string | undefined;
  let lastPassAt = 0;
  let watcher: { rpcUrl: string; w: Watcher } | undefined;
  while (Date.now() < until && !opts.signal?.aborted) {
    try {
      // Nothing is recorded before the rail check has read the chain id and tokens (once per process);
      // a stopped network is not watched, a stopped token's contract not read.
      const checked = await checkedNetwork(net);
      if (checked && isNetworkReady(checked)) {
        if (watcher?.rpcUrl !== checked.rpcUrl) watcher = { rpcUrl: checked.rpcUrl, w: family.loop(db, checked) };
        const head = await watcher.w.head();
        if (head !== lastHead || Date.now() - lastPassAt >= FULL_PASS_EVERY_MS) {
          await watcher.w.pass(checked, opts.signal);
          [lastHead, lastPassAt] = [head, Date.now()];
        }
      }
    } catch (err) {
      log.warn('chain watch failed', { mode, chain: net.chain, chainId: net.chainId, error: String((err as Error).message ?? err).slice(0, 300) });
      await sleep(1_000, opts.signal);
    }
    await sleep(opts.pollMs ?? family.pollMs, opts.signal);
  }
}
