/**
 * Shared by the abuse scenarios: a victim's operation timed one at a time at a
 * steady pace, and an attacker's loops that run until told to stop.
 */

export interface VictimRun {
  latencies: number[];
  refused: number;
  /** The first refusal's text, for the note. */
  firstRefusal?: string;
}

export const p99 = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)]! * 10) / 10;
};

/**
 * Runs `op` `n` times, one at a time, `gapMs` apart. `op` resolves to null
 * when it succeeded, else to a description of the refusal (the victim's
 * request refused or failed).
 */
export async function victim(n: number, gapMs: number, op: (i: number) => Promise<string | null>): Promise<VictimRun> {
  const latencies: number[] = [];
  let refused = 0;
  let firstRefusal: string | undefined;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    let r: string | null;
    try {
      r = await op(i);
    } catch (e) {
      r = String(e);
    }
    latencies.push(performance.now() - t0);
    if (r !== null) {
      refused++;
      firstRefusal ??= r;
    }
    await new Promise((res) => setTimeout(res, gapMs));
  }
  if (process.env.BENCH_ABUSE_TRACE === '1') console.log('victim latencies', latencies.map((l) => Math.round(l)).join(' '));
  return { latencies, refused, firstRefusal };
}

/**
 * An attack's first second is a transient: what the limits allow lands at
 * once (an address's whole minute of orders, the first quotes of a fair
 * share) and its refusal paths run for the first time. One victim call times
 * it, reported apart; the steady-state p99 is measured after `ms`.
 */
export async function leadIn(op: () => Promise<unknown>, ms = 1000): Promise<number> {
  const t0 = performance.now();
  await op().catch(() => undefined);
  const first = performance.now() - t0;
  await new Promise((r) => setTimeout(r, Math.max(0, ms - first)));
  return Math.round(first);
}

/**
 * `loops` concurrent loops calling `op` until `stop()`, each at most one call
 * per `gapMs` (in-process a refused call costs almost nothing, so an unpaced
 * loop would only measure a busy loop; 4 loops at 5 ms offer about 800
 * requests/s, what one `next start` serves on this machine); counts outcomes by label.
 */
export function attacker(loops: number, op: (i: number) => Promise<string>, gapMs = 5) {
  let running = true;
  let i = 0;
  const outcomes: Record<string, number> = {};
  const done = Promise.all(
    Array.from({ length: loops }, async () => {
      while (running) {
        let label: string;
        try {
          label = await op(i++);
        } catch (e) {
          label = `threw ${(e as Error).name}`;
        }
        outcomes[label] = (outcomes[label] ?? 0) + 1;
        await new Promise((res) => setTimeout(res, gapMs));
      }
    }),
  );
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
      return outcomes;
    },
  };
}

export const summary = (o: Record<string, number>) =>
  Object.entries(o)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');

/**
 * An open-loop flood: starts `op` `perSecond` times a second without waiting
 * for earlier calls (a flood does not slow down because the server does),
 * until `stop()`, which waits for the calls in flight; counts outcomes by label.
 */
export function offered(perSecond: number, op: (i: number) => Promise<string>) {
  const outcomes: Record<string, number> = {};
  const inFlight = new Set<Promise<void>>();
  let i = 0;
  const fire = () => {
    const p = op(i++)
      .catch((e: Error) => `threw ${e.name}: ${e.message}`)
      .then((label) => {
        outcomes[label] = (outcomes[label] ?? 0) + 1;
        inFlight.delete(p);
      });
    inFlight.add(p);
  };
  const timer = perSecond > 0 ? setInterval(fire, 1000 / perSecond) : undefined;
  return {
    outcomes,
    started: () => i,
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return outcomes;
    },
  };
}
