import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stub answers: clean or listed (in each API's shape), a 500, an answer out of shape, or nothing at all. */
export type StubMode = 'clean' | 'listed' | 'error500' | 'malformed' | 'hang';

/**
 * A local stand-in for both screening adapters' services on 127.0.0.1 (tests have no internet): Chainalysis's
 * `GET /api/v1/address/{address}` and a scoring service's `POST /score`. `mode` applies to every request unless the
 * address is in `listed` (then listed); every request is recorded with its headers.
 */
export async function startAdapterStub() {
  const state = { mode: 'clean' as StubMode, listed: new Set<string>(), score: 90 };
  const requests: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const chainalysis = req.url!.startsWith('/api/v1/address/');
      const address = chainalysis
        ? decodeURIComponent(req.url!.split('/').pop()!)
        : String((JSON.parse(body || '{}') as { address?: string }).address);
      const mode: StubMode = state.listed.has(address.toLowerCase()) ? 'listed' : state.mode;
      if (mode === 'hang') return; // never answers: the caller's timeout must end it
      if (mode === 'error500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
      if (mode === 'malformed')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(chainalysis ? '{"ids":[]}' : '{"score":"high"}');
      const listed = mode === 'listed';
      const answer = chainalysis
        ? { identifications: listed ? [{ category: 'sanctions', name: 'SANCTIONS: OFAC SDN test entry' }] : [] }
        : { score: listed ? state.score : 3 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    state,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
