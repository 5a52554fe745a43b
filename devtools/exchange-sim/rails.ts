import { privateKeyToAccount } from 'viem/accounts';
import { createSimChain, type SendQueue, type SimChain, type SimChainOptions } from './chain';

/** One on-chain currency of the simulator: its chain view and the confirmations a deposit needs. */
export type SimRail = SimChain & { code: string; reqConfirmations: number };

export type SimRailOptions = SimChainOptions & { reqConfirmations?: number };

/**
 * The simulator's on-chain currencies, by exchange code (USDTBSC, USDC, ...):
 * deposits to their orders are seen on their chain and payouts in them are
 * real transfers. Rails on the same node paid from the same wallet share one
 * send queue, so their payouts never race for a nonce.
 */
export function createSimRails(rails: Record<string, SimRailOptions>): Map<string, SimRail> {
  const queues = new Map<string, SendQueue>();
  const out = new Map<string, SimRail>();
  for (const [code, opts] of Object.entries(rails)) {
    const k = `${opts.rpcUrl}|${privateKeyToAccount(opts.walletKey).address}`;
    let queue = queues.get(k);
    if (!queue) queues.set(k, (queue = { tail: Promise.resolve() }));
    out.set(code, Object.assign(createSimChain(opts, queue), { code, reqConfirmations: opts.reqConfirmations ?? 1 }));
  }
  return out;
}
