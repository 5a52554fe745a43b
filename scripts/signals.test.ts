import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Ctrl-C must reach our own SIGINT handlers, also when the event loop is busy. tsx's CLI wrapper
 * relays the signal to its child and, if the child has not acknowledged it within ~60 ms,
 * SIGKILLs it and exits 130: a loaded `npm run dev` then left Next, anvil and the embedded
 * database without a clean shutdown (CI saw the exit code 130). The long-running scripts run
 * under `node --import tsx` instead: one process, no watchdog.
 */
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const tsScripts = Object.entries(scripts).filter(([, cmd]) => /\.ts(\s|$)/.test(cmd));

function runner(cmd: string): string[] {
  const words = cmd.split(/\s+/).filter((w) => !/^[A-Z0-9_]+=/.test(w)); // minus VAR=value prefixes
  return words.slice(
    0,
    words.findIndex((w) => w.endsWith('.ts')),
  );
}

function ctrlC(argv: string[]): Promise<{ code: number | null; out: string }> {
  const [cmd, ...args] = argv;
  const child = spawn(cmd!, [...args, 'lib/testing/fixtures/busy-on-sigint.ts'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let sent = false;
  const onData = (d: Buffer) => {
    out += d;
    if (!sent && out.includes('ready')) {
      sent = true;
      setTimeout(() => process.kill(-child.pid!, 'SIGINT'), 100); // mid-way through a busy stretch
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('package.json scripts and Ctrl-C', () => {
  it('every TypeScript script runs under the runner below, and the file exists', () => {
    expect(tsScripts.length).toBeGreaterThan(5);
    for (const [name, cmd] of tsScripts) expect(existsSync(cmd.split(/\s+/).find((w) => w.endsWith('.ts'))!), name).toBe(true);
    for (const [name, cmd] of tsScripts) expect(runner(cmd), name).toEqual(['node', '--import', 'tsx']);
  });

  it('that runner lets a busy process run its own SIGINT handler and exit 0', { timeout: 30_000 }, async () => {
    const res = await ctrlC(['node', '--import', 'tsx']);
    expect(res).toEqual({ code: 0, out: 'ready\nstopped\n' });
  });

  it("tsx's CLI wrapper does not (why the runner above is used)", { timeout: 30_000 }, async () => {
    const res = await ctrlC(['node_modules/.bin/tsx']);
    expect(res.code).toBe(130);
    expect(res.out).not.toContain('stopped');
  });
});
