/**
 * A small round-robin HTTP load balancer on loopback for the scale-out and
 * fault tests. A backend that refuses a connection is skipped for 2 s (passive
 * health check); a request already sent to a backend that dies is answered 502
 * and never retried (it may have run: the client retries with its Idempotency-Key).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded per backend index. */
  counts: number[];
  errors: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[], port = 0): Promise<RoundRobinProxy> {
  const targets = backends.map((b) => new URL(b));
  const downUntil = targets.map(() => 0);
  const counts = targets.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const state = { errors: 0 };

  const pick = () => {
    for (let i = 0; i < targets.length; i++) {
      const idx = next++ % targets.length;
      if (downUntil[idx]! <= Date.now()) return idx;
    }
    return next++ % targets.length;
  };

  const server = http.createServer((req, res) => {
    const forward = (attempt: number) => {
      const idx = pick();
      const t = targets[idx]!;
      counts[idx]!++;
      const upstream = http.request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': '127.0.0.1' }, agent },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        // Refused before anything was sent: safe to try another backend.
        if (err.code === 'ECONNREFUSED' && attempt < targets.length) {
          downUntil[idx] = Date.now() + 2_000;
          counts[idx]!--;
          forward(attempt + 1);
          return;
        }
        state.errors++;
        downUntil[idx] = Date.now() + 2_000;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: 'upstream failed', code: 'bad_gateway' }));
      });
      bodyChunks.then((body) => upstream.end(body));
    };
    const bodyChunks = new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
    forward(1);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    get errors() {
      return state.errors;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}
