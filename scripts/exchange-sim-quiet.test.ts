import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freePort } from '@/devtools/ports/free-port';

/*
 * Issue 45: npm run dev printed the local exchange's banner twice (one per mode). Each simulator it starts is quiet
 * and the stack prints one "[dev] local exchange" line for both.
 */
async function runSim(extra: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/exchange-sim.ts'], {
    env: { ...process.env, EXCHANGE_SIM_PORT: String(port), ...extra },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Up once it answers over HTTP (whatever the route says).
  for (let answered = false; !answered;) {
    answered = await fetch(`http://127.0.0.1:${port}/api/v2/ccies`, { method: 'POST' }).then(
      () => true,
      () => new Promise<boolean>((r) => setTimeout(() => r(false), 100)),
    );
  }
  child.kill('SIGTERM');
  await exited;
  return out;
}

describe('the local exchange under npm run dev', () => {
  it('prints its banner when run alone, nothing when quiet; the dev stack starts each one quiet', { timeout: 60_000 }, async () => {
    expect(await runSim({})).toMatch(/^\[exchange-sim\] FixedFloat API v2 on http/);
    expect(await runSim({ EXCHANGE_SIM_QUIET: '1' })).toBe('');
    const dev = readFileSync('scripts/dev.ts', 'utf8');
    // The simulator's settings moved to lib/dev/local-exchange.ts with its start (scripts/dev.ts stays short).
    const sim = readFileSync('lib/dev/local-exchange.ts', 'utf8');
    expect(sim).toContain("EXCHANGE_SIM_QUIET: '1'");
    expect(dev.match(/console\.log\(`\[dev\] local exchange/g)).toHaveLength(1);
  });
});
