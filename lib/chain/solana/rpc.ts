import type { z } from 'zod';
import { SOLANA_RPC_RESULTS, type SolanaRpcMethod } from './rpc-schemas';

/**
 * A Solana JSON-RPC read or send that did not give a usable answer: the node refused (`code`, `data` as it sent
 * them, e.g. -32002 with `{ err: 'BlockhashNotFound' }`), could not be reached, or answered something the schema
 * does not accept. Callers treat it as "unknown", never as "nothing there".
 */
export class SolanaRpcError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
    this.name = 'SolanaRpcError';
  }
}

export type SolanaRpcResult<M extends SolanaRpcMethod> = z.output<(typeof SOLANA_RPC_RESULTS)[M]>;

/** A JSON-RPC client whose every result is parsed by the method's schema (rpc-schemas.ts). */
export interface SolanaRpc {
  call<M extends SolanaRpcMethod>(method: M, params: unknown[]): Promise<SolanaRpcResult<M>>;
}

/** The client of one node URL; `timeoutMs` bounds each request (default 10 s). */
export function solanaRpc(url: string, opts: { timeoutMs?: number } = {}): SolanaRpc {
  let id = 0;
  return {
    async call(method, params) {
      let body: { result?: unknown; error?: { code?: number; message?: string; data?: unknown } };
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
        if (!res.ok) throw new SolanaRpcError(method, `HTTP ${res.status}`);
        body = (await res.json()) as typeof body;
      } catch (e) {
        if (e instanceof SolanaRpcError) throw e;
        throw new SolanaRpcError(method, `no answer: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (body === null || typeof body !== 'object') throw new SolanaRpcError(method, 'the answer is not a JSON-RPC response');
      if (body.error) throw new SolanaRpcError(method, body.error.message ?? 'error', body.error.code, body.error.data);
      if (!('result' in body)) throw new SolanaRpcError(method, 'the answer has neither result nor error');
      const parsed = SOLANA_RPC_RESULTS[method].safeParse(body.result);
      if (!parsed.success) throw new SolanaRpcError(method, `unexpected result: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return parsed.data as SolanaRpcResult<typeof method>;
    },
  };
}
