import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';

/**
 * The scale-out run (scripts/scale-test.ts): two more `next start` processes
 * behind a round-robin proxy and two workers on a database of their own, the
 * whole flow on anvil, then the invariants. About two minutes on 2 cores;
 * SKIP_SCALE_E2E=1 leaves it out.
 */
test.skip(process.env.SKIP_SCALE_E2E === '1', 'SKIP_SCALE_E2E=1');

test('scale-out: invariants hold with 2 app instances and 2 workers', async () => {
  test.setTimeout(330_000);
  const { DATABASE_URL: _ownDb, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/scale-test.ts'], {
    env: { ...env, SCALE_INVOICES: '6' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  console.log(
    out
      .split('\n')
      .filter((l) => /^(PASS|FAIL| {4})/.test(l))
      .join('\n'),
  );
  expect(code, out.slice(-3000)).toBe(0);
});
