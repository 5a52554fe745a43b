import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingMessage['headers'];
  rawBody: string;
  at: number;
}

type Responder = (req: ReceivedWebhook, res: ServerResponse) => void | Promise<void>;

/** A real HTTP receiver on 127.0.0.1 and a random port, recording every request; respond() decides the answer (200 by default). */
export async function startReceiver(respond: Responder = (_r, res) => void res.writeHead(200).end('ok')) {
  const received: ReceivedWebhook[] = [];
  let responder = respond;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      void responder(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    setResponder: (r: Responder) => void (responder = r),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
