import { randomInt } from 'node:crypto';
import type { Rail } from '@/lib/config/rails';
import { planLocalSolana } from './local-solana';
import { planLocalTron } from './local-tron';

/**
 * A mode's stand-in nodes for `npm run dev` (scripts/dev.ts): the TRON stand-in when a TRON rail is enabled, the
 * Solana one when a Solana rail is, each unless the mode's `<MODE>_TRON_RPC_URL` / `<MODE>_SOLANA_RPC_URL` points
 * elsewhere. Planned first (issue 45): `env` is Next's while they start; `start` starts them side by side (nothing
 * once `stopping()`), `started` gets each node as soon as it runs, so Ctrl-C stops it.
 */
export async function planStandIns(opts: {
  mode: 'test' | 'live';
  rails: readonly Rail[];
  newPort: () => Promise<number>;
  slotMs: { TRON: number; SOLANA: number };
  stopping: () => boolean;
  started: (node: { stop(): Promise<unknown> }) => void;
}): Promise<{ env: Record<string, string>; start: () => Promise<void> }> {
  const { mode, rails } = opts;
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  const wanted = (chain: 'TRON' | 'SOLANA') => rails.some((r) => r.chain === chain) && !process.env[`${p}_${chain}_RPC_URL`];
  const plans: { env: Record<string, string>; start: () => Promise<unknown> }[] = [];
  if (wanted('TRON')) {
    // A random chain id, not the genesis block's own (two stand-ins started within one 3 s slot get the same
    // genesis): a new one each start, like the anvils.
    const chainId = randomInt(1_000_000_000, 2 ** 31);
    plans.push(planLocalTron({ mode, port: await opts.newPort(), chainId, blockTimeMs: opts.slotMs.TRON, started: opts.started }));
  }
  if (wanted('SOLANA'))
    plans.push(await planLocalSolana({ mode, port: await opts.newPort(), slotTimeMs: opts.slotMs.SOLANA, started: opts.started }));
  return {
    env: Object.assign({}, ...plans.map((x) => x.env)) as Record<string, string>,
    start: async () => {
      if (!opts.stopping()) await Promise.all(plans.map((x) => x.start()));
    },
  };
}
