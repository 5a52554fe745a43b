import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One upstream "node" behind the proxy: `lag` blocks behind the real chain (0: up to date). */
export interface TronFaultNode {
  lag: number;
}

/** A request as the proxy sees it: `/wallet/<method>`, `/walletsolidity/<method>` or `/jsonrpc`, and its JSON body. */
export interface TronCall {
  path: string;
  body: any;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * An HTTP proxy in front of the TRON stand-in for partial-failure tests (lib/testing/rpc-fault-proxy.ts is the
 * EVM one). Switches, changeable at any time through `state`:
 * - failWhen: requests it picks get HTTP 503;
 * - hangWhen: requests it picks never get an answer (the client's timeout ends them) until `heal`/`cutHanging`;
 * - loseAnswerWhen: requests it picks reach the node, then the answer is lost (HTTP 503): a broadcast that landed
 *   while the sender saw it fail;
 * - nodes: views answered round-robin per request. A node with `lag` n answers from a head n blocks back:
 *   getnowblock and getblock without a number give head−n (solidified−n on /walletsolidity), blocks and
 *   transaction infos above it are empty, JSON-RPC `latest`/`finalized` are cut the same way. Account and
 *   contract reads are served at the real head (the stand-in has no history);
 * - route: sends a request to a chosen node instead (e.g. look-ups to a lagging one, blocks to an up-to-date one).
 */
export async function startTronFaultProxy(upstream: string) {
  const state = {
    failWhen: null as ((c: TronCall) => boolean) | null,
    hangWhen: null as ((c: TronCall) => boolean) | null,
    loseAnswerWhen: null as ((c: TronCall) => boolean) | null,
    nodes: [{ lag: 0 }] as TronFaultNode[],
    /** Picks the node of a request (a load balancer routing by path); unset or undefined: round-robin. */
    route: null as ((c: TronCall) => number | undefined) | null,
    failed: 0,
  };
  let next = 0;
  const hanging = new Set<http.ServerResponse>();

  const forward = async (path: string, body: unknown) => {
    const res = await fetch(`${upstream}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json() as Promise<any>;
  };
  const numberOf = (b: any) => Number(b?.block_header?.raw_data?.number ?? 0);

  /** The answer of a node `lag` blocks behind. */
  const lagged = async (path: string, body: any, lag: number): Promise<unknown> => {
    const head = numberOf(await forward('/wallet/getnowblock', {})) - lag;
    const solid = numberOf(await forward('/walletsolidity/getnowblock', {})) - lag;
    if (path === '/jsonrpc') {
      const calls = (Array.isArray(body) ? body : [body]) as { id: unknown; method: string; params?: unknown[] }[];
      const out = await Promise.all(
        calls.map(async (c) => {
          const p = c.params ?? [];
          if (c.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: c.id, result: hex(head) };
          if (c.method === 'eth_getBlockByNumber') {
            const tag = p[0] === 'latest' ? hex(head) : p[0] === 'finalized' ? hex(Math.max(0, solid)) : p[0];
            if (typeof tag === 'string' && tag.startsWith('0x') && Number(tag) > head) return { jsonrpc: '2.0', id: c.id, result: null };
            return (await forward('/jsonrpc', [{ ...c, params: [tag, ...p.slice(1)] }]))[0];
          }
          return (await forward('/jsonrpc', [c]))[0];
        }),
      );
      return Array.isArray(body) ? out : out[0];
    }
    const solidity = path.startsWith('/walletsolidity/');
    const top = solidity ? solid : head;
    const prefix = solidity ? '/walletsolidity' : '/wallet';
    const method = path.slice(prefix.length + 1);
    if (method === 'getnowblock') return forward(`${prefix}/getblockbynum`, { num: top });
    if (method === 'getblock') {
      const key = String(body?.id_or_num ?? '');
      if (!key) return forward(path, { ...body, id_or_num: String(top) });
      if (/^\d+$/.test(key) && Number(key) > top) return {};
      return forward(path, body);
    }
    if (method === 'getblockbynum') return Number(body?.num) > top ? {} : forward(path, body);
    if (method === 'gettransactioninfobyid') {
      const info = await forward(path, body);
      return info && Number(info.blockNumber) > top ? {} : info;
    }
    return forward(path, body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://proxy').pathname;
        const text = Buffer.concat(chunks).toString();
        const body = text ? JSON.parse(text) : {};
        const c = { path, body };
        if (state.failWhen?.(c)) {
          state.failed++;
          return res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
        }
        if (state.hangWhen?.(c)) {
          state.failed++;
          hanging.add(res);
          return;
        }
        const node = state.nodes[state.route?.(c) ?? next++ % state.nodes.length]!;
        const out = node.lag === 0 ? await forward(path, body) : await lagged(path, body, node.lag);
        if (state.loseAnswerWhen?.(c)) {
          state.failed++;
          return res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch (err) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${String((err as Error).message)}`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const cutHanging = () => {
    for (const r of hanging) r.socket?.destroy();
    hanging.clear();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    /** Back to one healthy up-to-date node; requests hanging now are cut. */
    heal() {
      state.failWhen = null;
      state.hangWhen = null;
      state.loseAnswerWhen = null;
      state.nodes = [{ lag: 0 }];
      state.route = null;
      cutHanging();
    },
    hangingCount: () => hanging.size,
    cutHanging,
    async close() {
      cutHanging();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type TronFaultProxy = Awaited<ReturnType<typeof startTronFaultProxy>>;
