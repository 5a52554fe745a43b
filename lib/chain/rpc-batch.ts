/** A chain read that did not produce an answer (HTTP error, timeout, RPC error): retry later, never act on it. */
export class RpcReadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RpcReadError';
  }
}

export interface RpcCall {
  method: string;
  params: unknown[];
}

/** One call's outcome: a result (null means "not found" from this node), or the node's JSON-RPC error. */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; code?: number; message: string };

/**
 * Sends the calls as one JSON-RPC batch, so one node answers all of them (a
 * load balancer routes a request, not its items): a receipt's absence can be
 * weighed against the same node's head. A transport failure, timeout or
 * malformed answer throws RpcReadError; per-call errors come back as outcomes
 * for the caller to judge (a revert is an answer, "header not found" is not).
 */
export async function rpcBatch(rpcUrl: string, calls: RpcCall[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<RpcOutcome[]> {
  const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: c.method, params: c.params }));
  let json: unknown;
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      // The caller's signal too (a screening adapter's shared deadline), whichever ends first.
      signal: opts.signal
        ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs ?? 15_000)])
        : AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new RpcReadError(`RPC answered HTTP ${res.status}`);
    json = await res.json();
  } catch (err) {
    if (err instanceof RpcReadError) throw err;
    throw new RpcReadError(`RPC request failed: ${String((err as Error).message ?? err).slice(0, 200)}`, { cause: err });
  }
  if (!Array.isArray(json)) throw new RpcReadError('RPC did not answer the batch with an array');
  const byId = new Map<number, { result?: unknown; error?: { code?: number; message?: string } }>();
  for (const item of json as { id: number; result?: unknown; error?: { code?: number; message?: string } }[]) byId.set(Number(item.id), item);
  return calls.map((c, i) => {
    const item = byId.get(i + 1);
    if (!item) throw new RpcReadError(`RPC batch answer lacks ${c.method}`);
    if (item.error) return { ok: false, code: item.error.code, message: String(item.error.message ?? 'RPC error') };
    if (!('result' in item)) throw new RpcReadError(`RPC batch answer to ${c.method} has neither result nor error`);
    return { ok: true, result: item.result ?? null };
  });
}

/** The result of a call that must succeed; an RPC error is not an answer. */
export function resultOf(o: RpcOutcome, what: string): unknown {
  if (!o.ok) throw new RpcReadError(`${what}: ${o.message.slice(0, 200)}`);
  return o.result;
}
