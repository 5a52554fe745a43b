/**
 * Throttle keys this process has seen locked, until when. A locked key is
 * refused without counting, and its lock only ends by expiry (a success that
 * would clear it has to get past it first), so while the lock lasts the answer
 * is known: a flood from one locked address costs no database statement. Per
 * process (another instance learns on its own first refusal) and bounded.
 */
const MAX_KEYS = 10_000;
const key = Symbol.for('gateway.throttleLockMemo');
type G = typeof globalThis & { [key]?: Map<string, number> };
const memo = () => ((globalThis as G)[key] ??= new Map());

/** The longest remaining local lock among `keys` in ms, or 0. */
export function lockedLocally(keys: string[], now = Date.now()): number {
  const m = memo();
  let wait = 0;
  for (const k of keys) {
    const until = m.get(k);
    if (until === undefined) continue;
    if (until <= now) m.delete(k);
    else wait = Math.max(wait, until - now);
  }
  return wait;
}

export function rememberLock(k: string, until: number, now = Date.now()): void {
  const m = memo();
  if (m.size >= MAX_KEYS) {
    for (const [other, u] of m) if (u <= now) m.delete(other);
    // Still full of live locks: forget the oldest entries (they are only a shortcut; the database decides).
    for (const other of m.keys()) {
      if (m.size < MAX_KEYS) break;
      m.delete(other);
    }
  }
  m.set(k, until);
}
