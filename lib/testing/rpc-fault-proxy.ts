import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One upstream "node" behind the proxy: `lag` blocks behind the real chain (0: up to date). */
export interface FaultNode {
  lag: number;
}

export interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method: string;
  params?: unknown[];
}

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * A JSON-RPC proxy in front of one anvil for partial-failure tests. Switches
 * (change them at any time through `state`):
 * - failMethods / failWhen: requests that contain one of these methods, or a
 *   call the predicate picks, get HTTP 503;
 * - errorWhen: calls the predicate picks are answered with a JSON-RPC error
 *   (-32000, the rest of the batch forwarded): a node that answers, but not this call;
 * - failRate: that fraction of all requests fails at random, half with HTTP
 *   503, half by hanging `hangMs` and then cutting the connection (a timeout);
 * - nodes: the views answered round-robin per HTTP request (a batch stays on
 *   one node, as with a real load balancer). A node with `lag` n answers as a
 *   node n blocks behind: eth_blockNumber is head−n, blocks, receipts and
 *   transactions above head−n are null, reads at "latest"/"pending" are served
 *   at head−n, logs are cut at head−n.
 */
export async function startRpcFaultProxy(upstream: string, opts: { nodes?: FaultNode[]; port?: number } = {}) {
  const state = {
    failMethods: new Set<string>(),
    /** Requests with a call this returns true for get HTTP 503 (e.g. reads of recent blocks only). */
    failWhen: null as ((call: RpcCall) => boolean) | null,
    /** Calls this returns true for get a JSON-RPC error answer (HTTP 200), the batch's other calls their answers. */
    errorWhen: null as ((call: RpcCall) => boolean) | null,
    failRate: 0,
    /** Requests with a call this returns true for hang `hangMs`, then lose their connection (a node that stopped answering). */
    hangWhen: null as ((call: RpcCall) => boolean) | null,
    hangMs: 20_000,
    nodes: opts.nodes ?? [{ lag: 0 }],
    /** Requests per node index, failures injected. */
    counts: [] as number[],
    failed: 0,
  };
  let next = 0;
  const hanging = new Set<http.ServerResponse>();

  const forward = async (body: unknown) => {
    const res = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json() as Promise<any>;
  };

  /** Rewrites one call for a node `lag` blocks behind `head`; returns a direct answer or the call to forward. */
  const lagged = (call: RpcCall, lagHead: number): { answer: unknown } | { call: RpcCall; after?: (r: any) => unknown } => {
    const p = call.params ?? [];
    const atLag = (tag: unknown) =>
      tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized' || tag === undefined ? hex(lagHead) : tag;
    const hidden = (r: any) => (r && r.blockNumber && Number(r.blockNumber) > lagHead ? null : r);
    switch (call.method) {
      case 'eth_blockNumber':
        return { answer: hex(lagHead) };
      case 'eth_getBlockByNumber': {
        const tag = atLag(p[0]);
        if (Number(tag) > lagHead) return { answer: null };
        return { call: { ...call, params: [tag, ...p.slice(1)] } };
      }
      case 'eth_getBlockByHash':
        return { call, after: (b) => (b && Number(b.number) > lagHead ? null : b) };
      case 'eth_getTransactionReceipt':
      case 'eth_getTransactionByHash':
        return { call, after: hidden };
      case 'eth_getTransactionCount':
      case 'eth_getBalance':
      case 'eth_getCode':
        return { call: { ...call, params: [p[0], atLag(p[1])] } };
      case 'eth_call':
      case 'eth_estimateGas':
        return { call: { ...call, params: [p[0], atLag(p[1])] } };
      case 'eth_getLogs': {
        const f = { ...(p[0] as Record<string, string>) };
        if (f.toBlock === undefined || f.toBlock === 'latest' || Number(f.toBlock) > lagHead) f.toBlock = hex(lagHead);
        if (f.fromBlock !== undefined && Number(f.fromBlock) > lagHead) return { answer: [] };
        return { call: { ...call, params: [f] } };
      }
      default:
        return { call };
    }
  };

  const answerCalls = async (calls: RpcCall[], node: FaultNode) => {
    if (node.lag === 0) return forward(calls);
    const head = Number((await forward({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] })).result);
    const lagHead = Math.max(0, head - node.lag);
    return Promise.all(
      calls.map(async (c) => {
        const plan = lagged(c, lagHead);
        if ('answer' in plan) return { jsonrpc: '2.0', id: c.id, result: plan.answer };
        const r = await forward(plan.call);
        return plan.after && r.result !== undefined ? { ...r, result: plan.after(r.result) } : r;
      }),
    );
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as RpcCall | RpcCall[];
        const calls = Array.isArray(body) ? body : [body];
        if (calls.some((c) => state.failMethods.has(c.method) || state.failWhen?.(c))) {
          state.failed++;
          return res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
        }
        const hang = calls.some((c) => state.hangWhen?.(c));
        if (hang || (state.failRate > 0 && Math.random() < state.failRate)) {
          state.failed++;
          if (!hang && Math.random() < 0.5) return res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
          hanging.add(res);
          setTimeout(() => {
            hanging.delete(res);
            req.socket.destroy();
          }, state.hangMs).unref();
          return;
        }
        const idx = next++ % state.nodes.length;
        state.counts[idx] = (state.counts[idx] ?? 0) + 1;
        const errorWhen = state.errorWhen;
        const failing = errorWhen ? calls.filter((c) => errorWhen(c)) : [];
        if (failing.length) state.failed++;
        const forwarded = calls.filter((c) => !failing.includes(c));
        const got = forwarded.length ? await answerCalls(forwarded, state.nodes[idx]!) : [];
        const byCall = new Map(forwarded.map((c, i) => [c, (Array.isArray(got) ? got[i] : got) as unknown]));
        const answers = calls.map((c) =>
          failing.includes(c) ? { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: 'injected node error' } } : byCall.get(c),
        );
        const out = Array.isArray(body) ? answers : Array.isArray(answers) ? answers[0] : answers;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch (err) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${String((err as Error).message)}`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    /** Back to a healthy single up-to-date node. */
    heal() {
      state.failMethods.clear();
      state.failWhen = null;
      state.errorWhen = null;
      state.hangWhen = null;
      state.failRate = 0;
      state.nodes = [{ lag: 0 }];
    },
    /** How many requests are hanging now: a test waits for this instead of sleeping until a client is stuck. */
    hangingCount() {
      return hanging.size;
    },
    /** Cuts every request hanging now (their clients see the connection lost), rather than after `hangMs`. */
    cutHanging() {
      for (const r of hanging) r.socket?.destroy();
      hanging.clear();
    },
    async close() {
      for (const r of hanging) r.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type RpcFaultProxy = Awaited<ReturnType<typeof startRpcFaultProxy>>;
