import { log } from '@/lib/log';
import { MODES } from '@/lib/mode';
import { checkRail } from './check-rail';
import { getNetworks } from './network';
import { problemLines } from './rail-gate';
import type { RailProblem } from './rail-stops';

/**
 * At start (boot(), the standalone worker): every enabled rail of both modes whose network has an RPC URL
 * is read from its chain (checkRail; TRON through its own API). Production refuses to start on any mismatch, with one line per
 * variable at fault; development prints the same lines and runs on without those rails (they are stopped,
 * the others keep working). A network whose node cannot be read now is not passed either: it is logged,
 * and its watcher, settlements and lane check it again before their first move (lib/chain/rail-gate.ts).
 */
export async function checkRailsAtStart(opts: { production: boolean }): Promise<RailProblem[]> {
  const nets = MODES.flatMap((m) => getNetworks(m)).filter((n) => n.rpcUrl !== undefined);
  const results = await Promise.all(
    nets.map((n) =>
      checkRail(n).then(
        (problems) => ({ n, problems }),
        (error: unknown) => ({ n, error }),
      ),
    ),
  );
  const problems = results.flatMap((r) => ('problems' in r ? r.problems : []));
  for (const r of results) {
    if ('error' in r)
      log.error('rail check: not read, checked again before the first send', {
        mode: r.n.mode,
        chain: r.n.chain,
        error: String((r.error as Error).message ?? r.error),
      });
  }
  if (problems.length === 0) return [];
  const lines = problemLines(problems).map((l) => `  ${l}`);
  if (opts.production) {
    const message = `Rail check failed: the configuration does not match the chain\n${lines.join('\n')}`;
    console.error(message);
    throw new Error(message);
  }
  console.error(`Rail check (development: these rails are stopped, the others keep working):\n${lines.join('\n')}`);
  return problems;
}
