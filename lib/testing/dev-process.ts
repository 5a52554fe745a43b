import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** Every process below pid (children of children too), read from ps before anything is killed. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * `npm run dev` (scripts/dev.ts) as a test runs it: started in its own process group like a
 * terminal's foreground job, ready when /api/health answers, stopped with Ctrl-C (SIGINT).
 * scripts/dev.ts starts its children in process groups of their own, so a dev process killed
 * outright would leave Next, anvil and the worker running: kill() takes the whole tree.
 */
export class DevProcess {
  log = '';
  private child: ChildProcess | undefined;

  constructor(private readonly opts: { cwd?: string; env: NodeJS.ProcessEnv; port: number; name?: string }) {}

  get base(): string {
    return `http://127.0.0.1:${this.opts.port}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** `readyPath`: what must answer 2xx (bench/first-minutes.ts waits for the first page, not /api/health, whose compile would compete with it). */
  async start(timeoutMs = 180_000, readyPath = '/api/health'): Promise<void> {
    const { cwd, env, port } = this.opts;
    const d = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      cwd,
      env: { ...env, PORT: String(port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = d;
    d.stdout!.on('data', (c) => (this.log += c));
    d.stderr!.on('data', (c) => (this.log += c));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.running) throw new Error(`${this.opts.name ?? 'npm run dev'} exited (${d.exitCode ?? d.signalCode}):\n${this.log}`);
      const ok = await fetch(`${this.base}${readyPath}`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`${this.opts.name ?? 'npm run dev'} not ready after ${timeoutMs / 1000} s:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Ctrl-C: SIGINT to the process group, as the terminal sends it. Resolves with the exit code. */
  async stop(): Promise<number | null> {
    const d = this.child!;
    if (!this.running) return d.exitCode;
    const exited = new Promise<number | null>((r) => d.once('exit', (code) => r(code)));
    process.kill(-d.pid!, 'SIGINT');
    return exited;
  }

  /** Cleanup after a failed test: Ctrl-C first, then SIGKILL to every process the stack started. */
  async kill(): Promise<void> {
    const d = this.child;
    if (!d?.pid) return;
    const tree = descendants(d.pid);
    if (this.running) {
      const exited = new Promise((r) => d.once('exit', r));
      process.kill(-d.pid, 'SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    for (const pid of [d.pid, ...tree]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}
