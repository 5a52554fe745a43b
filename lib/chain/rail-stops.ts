import type { Asset, ChainKey } from '@/lib/config/rails';
import { accountBytes } from './address-codecs';

/** One finding of the rail check: the variable at fault and what the chain answered. */
export interface RailProblem {
  mode: 'test' | 'live';
  chain: ChainKey;
  /** The token whose contract is wrong; unset: the whole network (its node is another chain). */
  token?: Asset;
  variable: string;
  message: string;
}

/** What identifies a checked network or token: a changed URL, chain id, contract, decimals or symbol is checked again. */
interface NetworkIdentity {
  mode: string;
  chain: string;
  chainId: number;
  rpcUrl?: string;
}
interface TokenIdentity {
  address: string;
  decimals: number;
  symbols?: readonly string[];
}

export const networkKey = (n: NetworkIdentity) => `${n.mode}|${n.chain}|${n.chainId}|${n.rpcUrl ?? ''}`;
/** Keyed by the contract's 20 bytes: case is meaningful in a `T…` (base58) address, so it is never lower-cased. */
export const tokenKey = (n: NetworkIdentity, t: TokenIdentity) =>
  `${networkKey(n)}|${accountBytes(t.address)}|${t.decimals}|${(t.symbols ?? []).join(',')}`;

/**
 * The verdicts of this process's rail checks: a key is `ok` or the problem that stopped it. On
 * globalThis, like the network overrides, so every module graph (Next route handlers, the inline
 * worker) sees the rails boot() stopped. `generation` counts stops, for callers that cache.
 */
interface Store {
  verdicts: Map<string, RailProblem | 'ok'>;
  generation: number;
}
const storeKey = Symbol.for('gateway.railVerdicts');
const g = globalThis as typeof globalThis & { [storeKey]?: Store };
const store = (): Store => (g[storeKey] ??= { verdicts: new Map(), generation: 0 });

export function recordVerdict(key: string, verdict: RailProblem | 'ok'): void {
  const s = store();
  s.verdicts.set(key, verdict);
  if (verdict !== 'ok') s.generation++;
}

/** The verdict of a network or token, or undefined when it was never checked in this process. */
export function verdictOf(key: string): RailProblem | 'ok' | undefined {
  return store().verdicts.get(key);
}

/** Changes each time a rail is stopped (0: none ever was, the usual case). */
export function stopGeneration(): number {
  return store().generation;
}

/** Tests: forget every verdict. */
export function clearRailVerdicts(): void {
  const s = store();
  s.verdicts.clear();
  s.generation++;
}
