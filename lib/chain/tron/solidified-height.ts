import type { TronNodeClient } from './node-client';
import { parseWalletBlock, type TronBlockRef } from './parse';

type Read = { startedAt: number; inFlight: boolean; block: Promise<TronBlockRef> };
/** By client: one per network's node in a process (tronClientOf), so the sweeps of a network share its reads. */
const reads = new WeakMap<TronNodeClient, Read>();

/**
 * The node's solidified block (`/walletsolidity/getblock`: number, id, time), one read shared by every caller of
 * the same node client within `maxAgeMs` of its start: each sweep waiting on the chain asks once a second, and with
 * 64 waiting one read a second serves them all (issue 44). Callers arriving while a read is in flight join it. The
 * answer is never older than `maxAgeMs` (one poll tick; 0 shares only a read in flight), and an older solidified
 * block only proves less. A failed read rejects every caller that joined it and is forgotten at once: an error is
 * never an answer, and the next call reads again.
 */
export function readSolidifiedBlock(client: TronNodeClient, maxAgeMs: number): Promise<TronBlockRef> {
  const now = Date.now();
  const cached = reads.get(client);
  if (cached && (cached.inFlight || now - cached.startedAt < maxAgeMs)) return cached.block;
  const read: Read = {
    startedAt: now,
    inFlight: true,
    block: client.solidity('getblock', { detail: false }).then((raw) => {
      const { number, id, parentId, timestamp } = parseWalletBlock(raw);
      return { number, id, parentId, timestamp };
    }),
  };
  reads.set(client, read);
  read.block.then(
    () => (read.inFlight = false),
    () => {
      read.inFlight = false;
      if (reads.get(client) === read) reads.delete(client);
    },
  );
  return read.block;
}

/** The solidified block's number (readSolidifiedBlock). */
export const readSolidifiedHeight = async (client: TronNodeClient, maxAgeMs: number) => (await readSolidifiedBlock(client, maxAgeMs)).number;
