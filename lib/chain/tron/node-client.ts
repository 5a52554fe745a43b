/**
 * The TRON node interface: java-tron's HTTP API (`/wallet/*` at the head, `/walletsolidity/*` at the
 * solidified block) and its Ethereum-compatible JSON-RPC (`/jsonrpc`). Every failed, timed-out or
 * malformed answer throws `TronNodeError`: no read ever returns a default.
 */
export class TronNodeError extends Error {
  constructor(
    readonly endpoint: string,
    message: string,
    /** JSON-RPC error code, when the node answered one. */
    readonly rpcCode?: number,
  ) {
    super(`${endpoint}: ${message}`);
    this.name = 'TronNodeError';
  }
}

export interface TronNodeConfig {
  /** Full node base URL (TronGrid: https://api.trongrid.io). */
  url: string;
  /** JSON-RPC URL (default `${url}/jsonrpc`, TronGrid's form). */
  jsonRpcUrl?: string;
  /** TronGrid's `TRON-PRO-API-KEY`; never logged. */
  apiKey?: string;
  timeoutMs?: number;
}

export interface TronNodeClient {
  readonly config: TronNodeConfig;
  wallet<T = unknown>(method: string, body?: Record<string, unknown>): Promise<T>;
  solidity<T = unknown>(method: string, body?: Record<string, unknown>): Promise<T>;
  /** One JSON-RPC batch (answered by one node, so the calls see one chain); results in call order. */
  jsonRpc(calls: { method: string; params: unknown[] }[]): Promise<unknown[]>;
}

export function tronNodeClient(config: TronNodeConfig): TronNodeClient {
  const timeoutMs = config.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers['TRON-PRO-API-KEY'] = config.apiKey;

  async function post(endpoint: string, url: string, body: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
    } catch (e) {
      throw new TronNodeError(
        endpoint,
        e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `request failed: ${String(e)}`,
      );
    }
    const text = await res.text();
    if (!res.ok) throw new TronNodeError(endpoint, `HTTP ${res.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new TronNodeError(endpoint, `not JSON: ${text.slice(0, 200)}`);
    }
  }

  async function http<T>(prefix: 'wallet' | 'walletsolidity', method: string, body: Record<string, unknown> = {}): Promise<T> {
    const endpoint = `/${prefix}/${method}`;
    const out = await post(endpoint, `${config.url.replace(/\/$/, '')}${endpoint}`, { visible: false, ...body });
    // java-tron reports servlet failures as 200 with {"Error": "..."}.
    if (out && typeof out === 'object' && 'Error' in out) throw new TronNodeError(endpoint, String((out as { Error: unknown }).Error));
    return out as T;
  }

  return {
    config,
    wallet: (method, body) => http('wallet', method, body),
    solidity: (method, body) => http('walletsolidity', method, body),
    async jsonRpc(calls) {
      const url = config.jsonRpcUrl ?? `${config.url.replace(/\/$/, '')}/jsonrpc`;
      const out = await post(
        '/jsonrpc',
        url,
        calls.map((c, i) => ({ jsonrpc: '2.0', id: i, method: c.method, params: c.params })),
      );
      if (!Array.isArray(out)) throw new TronNodeError('/jsonrpc', `batch answered with ${JSON.stringify(out).slice(0, 200)}`);
      const byId = new Map(out.map((r: { id?: unknown }) => [r.id, r as { result?: unknown; error?: { code: number; message: string } }]));
      return calls.map((c, i) => {
        const r = byId.get(i);
        if (!r) throw new TronNodeError(`/jsonrpc ${c.method}`, 'missing from the batch answer');
        if (r.error) throw new TronNodeError(`/jsonrpc ${c.method}`, r.error.message, r.error.code);
        return r.result;
      });
    },
  };
}
