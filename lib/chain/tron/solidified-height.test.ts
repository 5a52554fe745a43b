import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { tronNodeClient, TronNodeError, type TronNodeClient } from './node-client';
import { readTronHeads } from './read-chain';
import { readSolidifiedHeight } from './solidified-height';

let node: TronNode;
beforeAll(async () => {
  node = await startTronNode({ solidifyDepth: 2 });
  await node.mine(5);
});
afterAll(async () => {
  await node?.stop();
});

/** The node's client, counting its /walletsolidity calls; `failing` makes them throw as a down node would. */
function counted(url: string) {
  const inner = tronNodeClient({ url });
  const c = { calls: 0, failing: false };
  const client: TronNodeClient = {
    config: inner.config,
    wallet: inner.wallet,
    jsonRpc: inner.jsonRpc,
    solidity: async (method, body) => {
      c.calls++;
      if (c.failing) throw new TronNodeError(`/walletsolidity/${method}`, 'HTTP 502: bad gateway');
      return inner.solidity(method, body);
    },
  };
  return Object.assign(c, { client });
}

describe('readSolidifiedHeight', () => {
  it('answers the solidified block, one node read shared by the sweeps asking within a tick', async () => {
    const c = counted(node.url);
    const answers = await Promise.all(Array.from({ length: 20 }, () => readSolidifiedHeight(c.client, 60_000)));
    const { solid } = await readTronHeads(tronNodeClient({ url: node.url }));
    expect(new Set(answers)).toEqual(new Set([solid.number]));
    expect(c.calls).toBe(1);
    expect(await readSolidifiedHeight(c.client, 60_000)).toBe(solid.number);
    expect(c.calls).toBe(1);
  });

  it('is never older than its tick: past it, the next caller reads the new height', async () => {
    const c = counted(node.url);
    const before = await readSolidifiedHeight(c.client, 0);
    await node.mine(3);
    expect(await readSolidifiedHeight(c.client, 0)).toBe(before + 3);
    expect(c.calls).toBe(2);
  });

  it('a failed read is an error for everyone who joined it, never an answer, and is not kept', async () => {
    const c = counted(node.url);
    c.failing = true;
    const joined = await Promise.allSettled([readSolidifiedHeight(c.client, 60_000), readSolidifiedHeight(c.client, 60_000)]);
    expect(joined.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(c.calls).toBe(1);
    c.failing = false;
    const { solid } = await readTronHeads(tronNodeClient({ url: node.url }));
    expect(await readSolidifiedHeight(c.client, 60_000)).toBe(solid.number);
    expect(c.calls).toBe(2);
  });
});
