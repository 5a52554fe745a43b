import { log } from '@/lib/log';
import { checkRail } from './check-rail';
import { tokensOf, withoutStoppedRails, type Network } from './network';
import { networkKey, tokenKey, verdictOf, type RailProblem } from './rail-stops';

const running = new Map<string, Promise<RailProblem[]>>();

function checked(net: Network): boolean {
  const verdict = verdictOf(networkKey(net));
  if (verdict === undefined) return false;
  return verdict !== 'ok' || tokensOf(net).every((t) => verdictOf(tokenKey(net, t)) !== undefined);
}

/** "VARIABLE: message" lines, as start-up prints them. */
export const problemLines = (problems: RailProblem[]) => problems.map((p) => `${p.variable}: ${p.message}`);

/**
 * The network as the rail check left it, checking it first if this process has not: called before a
 * lane's first send, a settlement run and the watcher's scans, so no money moves on a rail whose chain id,
 * decimals or symbol were not read and found right. Returns undefined when the whole network is stopped,
 * else the network without its stopped tokens (their withdrawals wait, their settlements are not claimed).
 * A failed read throws (the caller's pass fails and is retried): never a pass.
 */
export async function checkedNetwork<N extends Network>(net: N): Promise<N | undefined> {
  if (!checked(net)) {
    const key = [networkKey(net), ...tokensOf(net).map((t) => tokenKey(net, t))].join(';');
    let check = running.get(key);
    if (!check) {
      check = checkRail(net).finally(() => running.delete(key));
      running.set(key, check);
      const problems = await check;
      for (const line of problemLines(problems)) log.error(`rail check: ${line}`, { mode: net.mode, chain: net.chain });
    } else await check;
  }
  return withoutStoppedRails(net) as N | undefined;
}
