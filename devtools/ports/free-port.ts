import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now (its own folder: lib/testing and devtools/tron-node both use it). Picked at
 * random below Linux's ephemeral range (32768+), then checked by binding it: `listen(0)` hands a port just closed by
 * one process to the next that asks, so two stacks planning their ports at once (two `npm run dev` in the test suite,
 * each planning a dozen before binding any) were given the same ones and one died on EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = randomInt(20_000, 32_768);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
