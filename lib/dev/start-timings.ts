/**
 * Where `npm run dev`'s first minutes go (issue 45): each phase of the start with when it began and ended, in
 * seconds since the process started (performance.now(): module loading counts). Printed as one line, and only with
 * DEV_TIMINGS=1 (bench/first-minutes.ts sets it and shows the breakdown).
 */
export class StartTimings {
  private readonly phases: { name: string; from: number; to?: number }[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Starts a phase; the returned function ends it. */
  begin(name: string): () => void {
    const phase: { name: string; from: number; to?: number } = { name, from: this.now() };
    this.phases.push(phase);
    return () => {
      phase.to ??= this.now();
    };
  }

  /** A moment rather than a phase (e.g. "Next spawned"). */
  mark(name: string): void {
    const t = this.now();
    this.phases.push({ name, from: t, to: t });
  }

  /** Times a promise as a phase; its result passes through. */
  async time<T>(name: string, work: Promise<T>): Promise<T> {
    const end = this.begin(name);
    try {
      return await work;
    } finally {
      end();
    }
  }

  /** `[dev] start timings (s): modules 0.0–1.2, database 1.2–4.0, …`, in order of start; unfinished phases end in "…". */
  line(): string {
    const s = (ms: number) => (ms / 1000).toFixed(1);
    const parts = [...this.phases]
      .sort((a, b) => a.from - b.from)
      .map((p) => (p.to === p.from ? `${p.name} ${s(p.from)}` : `${p.name} ${s(p.from)}–${p.to === undefined ? '…' : s(p.to)}`));
    return `[dev] start timings (s since start): ${parts.join(', ')}`;
  }
}

/** DEV_TIMINGS=1 asks for the line. */
export const startTimingsWanted = (env: NodeJS.ProcessEnv = process.env) => env.DEV_TIMINGS === '1';

export interface Phase {
  name: string;
  /** Seconds since `npm run dev` started. */
  from: number;
  /** Undefined: not finished when the line was printed. */
  to: number | undefined;
}

/** The phases of a printed line (StartTimings.line), for bench/first-minutes.ts. */
export function parseStartTimings(line: string): Phase[] {
  const body = line.slice(line.indexOf(':') + 1).trim();
  if (!body) return [];
  return body.split(', ').map((part) => {
    const m = /^(.+) (\d+\.\d)(?:–(\d+\.\d|…))?$/.exec(part);
    if (!m) throw new Error(`not a start phase: ${part}`);
    const from = Number(m[2]);
    return { name: m[1]!, from, to: m[3] === undefined ? from : m[3] === '…' ? undefined : Number(m[3]) };
  });
}

/** Next's own steps in its log, by the line that starts each (the bench times each line the stack prints). */
export const NEXT_STEPS: [name: string, line: RegExp][] = [
  ['Next ready', /✓ Ready in/],
  ['instrumentation compile starts', /Compiling instrumentation/],
  ['proxy compile starts', /Compiling proxy/],
  ['/sign-in compile starts', /Compiling \/sign-in/],
  ['GET /sign-in 200', /GET \/sign-in 200/],
];
