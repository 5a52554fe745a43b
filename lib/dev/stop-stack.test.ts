import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { stopStack } from './stop-stack';

/** A stand-in chain: an HTTP server that answers until stopped. */
async function chain(order: string[]) {
  const server = createServer((_req, res) => res.end('{"result":"0x1"}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((r) => {
        order.push('chain stopped');
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A process that, like Next's chain watchers on their way out, asks the chain once more when it gets SIGTERM and
 * prints what happened. In its own process group, as scripts/dev.ts starts its children.
 */
function user(url: string, { ignoreTerm = false } = {}) {
  const code = `
    process.on('SIGTERM', async () => {
      ${ignoreTerm ? 'return;' : ''}
      try { await fetch(${JSON.stringify(url)}); console.log('chain answered'); }
      catch (e) { console.log('chain watch failed: ' + e.message); }
      process.exit(0);
    });
    console.log('up');
    setInterval(() => {}, 1000);`;
  const c = spawn(process.execPath, ['-e', code], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  c.stdout!.on('data', (d) => (out += d));
  const up = new Promise<void>((r) => c.stdout!.on('data', () => out.includes('up') && r()));
  return { c, up, out: () => out };
}

describe('Ctrl-C of npm run dev (issue 45)', () => {
  it('stops what uses the chains first, then the chains, then the database: no "fetch failed" on the way out', { timeout: 30_000 }, async () => {
    const order: string[] = [];
    const ch = await chain(order);
    const next = user(ch.url);
    await next.up;
    next.c.once('exit', () => order.push('next exited'));
    await stopStack({
      processes: [next.c],
      chains: [ch],
      closeDb: async () => void order.push('database closed'),
    });
    expect(next.out()).toContain('chain answered');
    expect(next.out()).not.toContain('fetch failed');
    expect(order).toEqual(['next exited', 'chain stopped', 'database closed']);
  });

  it('kills a process that ignores SIGTERM after the grace period, and still stops the chains after it', { timeout: 30_000 }, async () => {
    const order: string[] = [];
    const ch = await chain(order);
    const stubborn = user(ch.url, { ignoreTerm: true });
    await stubborn.up;
    stubborn.c.once('exit', (_code, signal) => order.push(`exited ${signal}`));
    await stopStack({ processes: [stubborn.c], chains: [ch], graceMs: 500 });
    expect(order).toEqual(['exited SIGKILL', 'chain stopped']);
  });

  it('gives up on a database that does not close, and says so', { timeout: 30_000 }, async () => {
    const lines: string[] = [];
    await stopStack({ processes: [], chains: [], closeDb: () => new Promise(() => {}), dbCloseMs: 200, log: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/did not close within 0.2 s/);
  });
});
