import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utils } from 'tronweb';
import { freePort } from '@/lib/testing/anvil';
import { startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { isRangeLimitError } from '../transfer-logs';
import { tronNodeClient, TronNodeError } from './node-client';
import { readTronBlock, readTronHeads, readTrc20Transfers } from './read-chain';

let node: TronNode;
beforeAll(async () => {
  node = await startTronNode();
});
afterAll(async () => {
  await node?.stop();
});

const fresh = () => utils.accounts.generateAccount();

describe('reading TRON blocks and TRC-20 transfers', () => {
  it('counts confirmations to the solidified block, configurable', async () => {
    const client = tronNodeClient({ url: node.url });
    await node.mine(25);
    const heads = await readTronHeads(client);
    expect(heads.solid.number).toBe(heads.head.number - 19);
    expect(heads.confirmed).toBe(heads.head.number - 19);
    expect((await readTronHeads(client, 25)).confirmed).toBe(heads.head.number - 25);
    // The solidified block caps confirmations below TRON's 19 too.
    expect((await readTronHeads(client, 3)).confirmed).toBe(heads.solid.number);
    const block = await readTronBlock(client, heads.solid.number);
    expect(block).toEqual(heads.solid);
  });

  it('reads the Transfer events of the token over a block range, in stored forms', async () => {
    const client = tronNodeClient({ url: node.url });
    const payer = fresh();
    const a = fresh();
    const b = fresh();
    await node.sendTrx(payer.address.base58, 200_000_000);
    await node.mintUsdt(payer.address.base58, 100_000_000n);
    const from = (await readTronHeads(client)).head.number + 1;
    const usdt = await node.tronWeb(payer.privateKey).contract().at(node.usdt);
    const tx1 = await usdt.transfer(a.address.base58, 1_500_000).send({ feeLimit: 100_000_000 });
    const tx2 = await usdt.transfer(b.address.base58, 2_250_001).send({ feeLimit: 100_000_000 });
    const { head } = await readTronHeads(client);

    const { toBlock, transfers } = await readTrc20Transfers(client, { tokens: [node.usdt], from, to: head.number });
    expect(toBlock).toEqual(head);
    expect(transfers.map((t) => ({ tx: t.txHash, to: t.to, value: t.value, from: t.from, token: t.token }))).toEqual([
      { tx: tx1, to: a.address.hex.toLowerCase(), value: 1_500_000n, from: payer.address.hex.toLowerCase(), token: node.usdtHex },
      { tx: tx2, to: b.address.hex.toLowerCase(), value: 2_250_001n, from: payer.address.hex.toLowerCase(), token: node.usdtHex },
    ]);
    for (const t of transfers) expect(t.blockHash).toBe((await readTronBlock(client, t.blockNumber)).id);
    // Another token's range is empty; an over-long range is a range-limit error the scanner shrinks.
    expect((await readTrc20Transfers(client, { tokens: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'], from, to: head.number })).transfers).toEqual([]);
    const tooLong = await readTrc20Transfers(client, { tokens: [node.usdt], from: 0, to: 6000 }).catch((e) => e);
    expect(tooLong).toBeInstanceOf(TronNodeError);
  });

  it('throws on a block the node does not have, a range past the head and an over-wide range', async () => {
    const client = tronNodeClient({ url: node.url });
    const { head } = await readTronHeads(client);
    await expect(readTronBlock(client, head.number + 50)).rejects.toThrow(/has no block/);
    await expect(readTrc20Transfers(client, { tokens: [node.usdt], from: head.number, to: head.number + 50 })).rejects.toThrow(/has no block/);
    await node.mine(1);
    const err = await readTrc20Transfers(client, { tokens: [node.usdt], from: 0, to: 5000 }).catch((e) => e);
    expect(err.message).toMatch(/exceed max block range: 5000/);
    expect(isRangeLimitError(err)).toBe(true);
  });
});

describe('a failed read is an error, never an answer', () => {
  let hung: Server;
  let hungPort: number;
  beforeAll(async () => {
    hungPort = await freePort();
    hung = createServer(() => {}); // accepts, never answers
    await new Promise<void>((r) => hung.listen(hungPort, '127.0.0.1', r));
  });
  afterAll(async () => {
    hung.close();
  });

  it('throws for a node that is down, hung, or answering garbage', async () => {
    const down = tronNodeClient({ url: `http://127.0.0.1:${await freePort()}` });
    await expect(readTronHeads(down)).rejects.toBeInstanceOf(TronNodeError);
    const slow = tronNodeClient({ url: `http://127.0.0.1:${hungPort}`, timeoutMs: 300 });
    await expect(readTronHeads(slow)).rejects.toThrow(/no answer within 300 ms/);
    const wrong = tronNodeClient({ url: node.url, jsonRpcUrl: `${node.url}/wallet/getnowblock` });
    await expect(readTronHeads(wrong)).rejects.toBeInstanceOf(TronNodeError);
  });
});
