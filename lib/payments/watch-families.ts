import type { Db } from '@/lib/db';
import { publicClient } from '@/lib/chain/clients';
import type { Network, NetworkOf, ReadyNetwork } from '@/lib/chain/network';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import type { ChainFamily } from '@/lib/config/rails';
import { watchChain, type WatchOptions } from './watch-chain';
import { TRON_READ_TIMEOUT_MS, watchTron } from './watch-tron';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { SOLANA_READ_TIMEOUT_MS, watchSolana } from './watch-solana';

export type WatchNetwork<N extends Network = Network> = ReadyNetwork<'rpcUrl' | 'tokenAddress', N>;

/** The watch loop's view of one network: its head (a poll that finds the same one skips the pass) and one pass. */
export interface Watcher<N extends Network = Network> {
  head(): Promise<string>;
  pass(net: WatchNetwork<N>, signal?: AbortSignal): Promise<unknown>;
}

/** What one watcher run reports (TRON adds its solidified block). */
export type WatchResult = Awaited<ReturnType<typeof watchChain>> & { solidified?: number };

interface WatchFamily<F extends ChainFamily = ChainFamily> {
  /** The loop's default poll. */
  pollMs: number;
  /** The loop's watcher of a network (watch-loop.ts). */
  loop(db: Db, net: WatchNetwork<NetworkOf<F>>): Watcher<NetworkOf<F>>;
  /** One watcher run (lib/jobs/run-invoice-jobs.ts). */
  once(db: Db, net: WatchNetwork<NetworkOf<F>>, opts: WatchOptions): Promise<WatchResult>;
}

/**
 * How each family is watched: its head, one pass, and the default poll. BSC makes a block every 0.45 s, so one
 * run covers many and detection stays well under a second; TRON makes one every 3 s, so ~1 s keeps detection
 * within a block for a third of the reads.
 */
export const WATCH_FAMILIES: { [F in ChainFamily]: WatchFamily<F> } = {
  evm: {
    pollMs: 150,
    loop: (db, net) => {
      const client = publicClient(net.rpcUrl);
      return { head: async () => String(await client.getBlockNumber()), pass: (n, signal) => watchChain(db, n, { signal }) };
    },
    once: (db, net, opts) => watchChain(db, net, opts),
  },
  tron: {
    pollMs: 1_000,
    loop: (db, net) => {
      const client = tronClientOf(net, TRON_READ_TIMEOUT_MS);
      let heads: Awaited<ReturnType<typeof readTronHeads>> | undefined;
      return {
        head: async () => {
          heads = await readTronHeads(client, net.confirmations);
          return `${heads.head.id}:${heads.solid.id}`;
        },
        pass: (n, signal) => watchTron(db, n, { signal, client, heads }),
      };
    },
    // A viem client given for EVM tests does not apply to TRON.
    once: (db, net, { client: _viem, ...scan }) => watchTron(db, net, scan),
  },
  // Each open invoice's deposit token accounts, read at `confirmed`; a slot every 400 ms (docs/solana.md §6.1).
  solana: {
    pollMs: 1_000,
    loop: (db, net) => {
      const rpc = solanaRpc(net.rpcUrl, { timeoutMs: SOLANA_READ_TIMEOUT_MS });
      return {
        head: async () => String(await rpc.call('getSlot', [{ commitment: 'confirmed' }])),
        pass: (n) => watchSolana(db, n, { rpc }),
      };
    },
    once: (db, net) => watchSolana(db, net),
  },
};

/** One watcher run over a network by its family's watcher. */
export const watchNetwork = (db: Db, net: WatchNetwork, opts: WatchOptions = {}): Promise<WatchResult> => watchFamily(net).once(db, net, opts);

/** The network's family's watcher, taking that network (its methods are the family's, chosen by `net.family`). */
export const watchFamily = (net: Network): WatchFamily => WATCH_FAMILIES[net.family];
