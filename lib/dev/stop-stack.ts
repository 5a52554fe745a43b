import type { ChildProcess } from 'node:child_process';

export interface StackToStop {
  /** Next, the worker, the local exchanges: each in a process group of its own. */
  processes: ChildProcess[];
  /** The local chains (anvils, TRON stand-ins). */
  chains: { stop(): Promise<unknown> }[];
  /** The embedded database, closed last. */
  closeDb?: () => Promise<unknown>;
  /** How long the processes get after SIGTERM before SIGKILL. */
  graceMs?: number;
  /** How long the database gets to close. */
  dbCloseMs?: number;
  log?: (line: string) => void;
}

function signalGroup(c: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-c.pid!, signal);
  } catch {
    c.kill(signal);
  }
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * Ctrl-C of `npm run dev`, in the order that leaves nothing complaining: the processes that use the chains and the
 * database first, the chains once those have exited, the database last. The chains once stopped together with
 * Next, and Next's chain watchers printed "chain watch failed … fetch failed" on the way out (issue 45).
 */
export async function stopStack({ processes, chains, closeDb, graceMs = 5_000, dbCloseMs = 10_000, log = console.error }: StackToStop) {
  const running = processes.filter((c) => !exited(c));
  const gone = Promise.all(running.map((c) => new Promise((r) => (exited(c) ? r(null) : c.once('exit', r)))));
  for (const c of running) signalGroup(c, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
  if ((await Promise.race([gone, late])) === 'late') {
    for (const c of running) if (!exited(c)) signalGroup(c, 'SIGKILL');
    await gone;
  }
  clearTimeout(timer);
  await Promise.all(chains.map((c) => c.stop().catch(() => undefined)));
  if (!closeDb) return;
  // Bounded: a close that never returned once left the process holding .data/ after Ctrl-C, so the next
  // `npm run dev` refused to start ("owned by another process"); PGlite recovers like after a crash.
  const closed = closeDb().then(
    () => true,
    (e: unknown) => (log(`[dev] closing the embedded database: ${String(e)}`), true),
  );
  let dbTimer: NodeJS.Timeout | undefined;
  const done = await Promise.race([closed, new Promise<false>((r) => (dbTimer = setTimeout(() => r(false), dbCloseMs)))]);
  clearTimeout(dbTimer);
  if (!done) log(`[dev] the embedded database did not close within ${dbCloseMs / 1000} s; exiting anyway (it recovers at the next start)`);
}
