import type { Network } from '@/lib/chain/network';
import { sleep } from '@/lib/async/sleep';
import { log } from '@/lib/log';

export interface PerNetworkOptions {
  signal?: AbortSignal;
  /** Loop each network for this long; without it, one pass each. */
  runForMs?: number;
  /** Pause between a network's passes when looping. */
  pollMs?: number;
}

/**
 * Runs `pass` for every network side by side, each in a loop of its own for `runForMs` (one pass each without
 * it), so a network whose node hangs or fails holds up only itself. Passing over the networks in turn let one
 * hung node hold every other network's withdrawals and payouts for as long as its calls took to time out.
 * Networks on one chain id share a loop and take turns (they may sign for the same addresses).
 * Looping, a failed pass is logged and retried a second later; one pass each rethrows the first failure once
 * every network has had its pass.
 */
export async function perNetwork<N extends Network>(job: string, nets: N[], pass: (net: N) => Promise<unknown>, opts: PerNetworkOptions = {}) {
  const groups = new Map<number, N[]>();
  for (const net of nets) groups.set(net.chainId, [...(groups.get(net.chainId) ?? []), net]);
  const until = opts.runForMs === undefined ? undefined : Date.now() + opts.runForMs;
  const failures: unknown[] = [];
  await Promise.all(
    [...groups.values()].map(async (group) => {
      // Each loop's sleeps on a signal of its own: a dozen local chains would put more listeners on one.
      const signal = opts.signal && AbortSignal.any([opts.signal]);
      do {
        for (const net of group) {
          if (signal?.aborted) return;
          try {
            await pass(net);
          } catch (err) {
            if (until === undefined) {
              failures.push(err);
              continue;
            }
            const error = String((err as Error)?.message ?? err).slice(0, 300);
            log.warn(`${job} failed`, { mode: net.mode, chain: net.chain, chainId: net.chainId, error });
            await sleep(1_000, signal);
          }
        }
        if (until !== undefined) await sleep(opts.pollMs ?? 500, signal);
      } while (until !== undefined && Date.now() < until && !signal?.aborted);
    }),
  );
  if (failures.length > 0) throw failures[0];
}
