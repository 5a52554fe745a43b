import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainCursors, chainTransfers } from '@/db/schema';
import { loadCursor, saveCursor } from '@/lib/chain/cursor';
import { setNetworkOverride, type ReadyNetwork } from '@/lib/chain/network';
import { tronNodeClient } from '@/lib/chain/tron/node-client';
import { readTronBlock, readTronHeads } from '@/lib/chain/tron/read-chain';
import { sleep } from '@/lib/async/sleep';
import { startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { createTestTenant } from '@/lib/testing/fixtures';
import { clearRailVerdicts, networkKey, verdictOf } from '@/lib/chain/rail-stops';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { watchChainLoop } from './watch-loop';
import { watchTron } from './watch-tron';

/*
 * The TRON watcher against the stand-in node (docs/tron.md §10): invoices created through the API, paid
 * by TronWeb-signed USDT transfers (6 decimals), found by watchTron, confirmed once solidified.
 */
let rail: TronRail;
let net: ReadyNetwork<'rpcUrl' | 'tokenAddress'>;
beforeAll(async () => {
  rail = await startTronRail();
  net = rail.net;
  await rail.node.mintUsdt(rail.node.keys.other.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const payer = () => rail.node.keys.other;

/** A USDT transfer signed and broadcast by TronWeb itself, as a customer's wallet would. */
async function pay(depositT: string, units: bigint): Promise<string> {
  const usdt = await rail.node.tronWeb(payer().privateKey).contract().at(rail.node.usdt);
  return String(await usdt.transfer(depositT, units.toString()).send());
}

async function tronInvoice(key: string, amount: string) {
  const res = await call('POST', '/v1/invoices', { key, body: { amount, chain: 'TRON', token: 'USDT' } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; depositAddress: string };
}

async function detail(key: string, id: string) {
  const res = await call('GET', `/v1/invoices/${id}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const watch =
  (opts: Parameters<typeof watchTron>[2] = {}) =>
  async (db: Parameters<typeof watchTron>[0]) =>
    watchTron(db, net, { baseBackoffMs: 1, maxRetries: 1, ...opts });

describe('the TRON watcher', () => {
  it('finds a TronWeb-signed USDT payment (DETECTED, exact), confirms it only once solidified (19 blocks)', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const inv = await tronInvoice(t.test, '12.50');
    const txId = await pay(inv.depositAddress, 12_500_000n);
    const run = await watch()(t.db);
    expect(run.matched).toBe(1);
    let d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'DETECTED', amountReceived: '12.50', chain: 'TRON' });
    expect(d.payments).toMatchObject([{ txHash: txId, amount: '12.50', confirmations: 0 }]);

    await rail.node.mine(18);
    await watch()(t.db);
    d = await detail(t.test, inv.id);
    expect(d.status, 'not solidified yet: 18 blocks on top').toBe('DETECTED');
    expect(d.payments[0].confirmations).toBe(18);

    await rail.node.mine(1);
    const done = await watch()(t.db);
    expect(done.solidified).toBeGreaterThanOrEqual(d.payments[0].blockNumber);
    expect((await detail(t.test, inv.id)).status).toBe('CONFIRMED');
  });

  it('waits for solidification even when the configured confirmations are fewer', async () => {
    const t = await createTestTenant();
    const few = { ...rail.net, confirmations: 5 };
    const run = (db: typeof t.db) => watchTron(db, few, { baseBackoffMs: 1, maxRetries: 1 });
    await run(t.db);
    setNetworkOverride('test', few);
    try {
      const inv = await tronInvoice(t.test, '3.00');
      await pay(inv.depositAddress, 3_000_000n);
      await rail.node.mine(10);
      await run(t.db);
      // 10 blocks on top: past the invoice's 5 confirmations, but the node solidifies at 19.
      expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
      await rail.node.mine(9);
      await run(t.db);
      expect((await detail(t.test, inv.id)).status).toBe('CONFIRMED');
    } finally {
      setNetworkOverride('test', rail.net);
    }
  });

  it('counts an overpayment and an underpayment exactly (6 decimals)', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const over = await tronInvoice(t.test, '10.00');
    const under = await tronInvoice(t.test, '10.00');
    await pay(over.depositAddress, 10_000_001n);
    await pay(under.depositAddress, 9_999_999n);
    await watch()(t.db);
    expect(await detail(t.test, over.id)).toMatchObject({ status: 'OVERPAID', amountReceived: '10.000001' });
    expect(await detail(t.test, under.id)).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '9.999999' });
  });

  it('records nothing twice when a range is scanned again', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const inv = await tronInvoice(t.test, '4.00');
    await pay(inv.depositAddress, 1_500_000n);
    await pay(inv.depositAddress, 2_500_000n);
    await watch()(t.db);
    const rows = await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id));
    expect(rows).toHaveLength(2);
    // The cursor back below both payments (a restart from an old cursor): the same range again.
    const first = Math.min(...rows.map((r) => r.blockNumber));
    const before = await readTronBlock(rail.client, first - 1);
    await saveCursor(t.db, net, { lastBlock: before.number, lastBlockHash: before.id, lastBlockTime: new Date(before.timestamp) });
    const again = await watch()(t.db);
    expect(again.scanned).toBeGreaterThanOrEqual(2);
    expect(again.matched).toBe(0);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toHaveLength(2);
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'DETECTED', amountReceived: '4.00' });
  });
});

describe('a TRON node that fails', () => {
  let proxy: RpcFaultProxy;
  beforeAll(async () => {
    proxy = await startRpcFaultProxy(`${rail.node.url}/jsonrpc`);
  });
  afterAll(() => proxy?.close());

  const cursorRow = async (db: Parameters<typeof watchTron>[0]) =>
    (
      await db
        .select()
        .from(chainCursors)
        .where(and(eq(chainCursors.mode, 'test'), eq(chainCursors.chainId, net.chainId)))
    )[0]!;

  it('a JSON-RPC error on eth_getLogs is an error; the cursor does not move', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const inv = await tronInvoice(t.test, '2.00');
    await pay(inv.depositAddress, 2_000_000n);
    const before = await cursorRow(t.db);
    proxy.heal();
    proxy.state.errorWhen = (c) => c.method === 'eth_getLogs';
    const client = tronNodeClient({ url: rail.node.url, jsonRpcUrl: proxy.url });
    try {
      await expect(watch({ client })(t.db)).rejects.toThrow(/injected node error/);
    } finally {
      proxy.heal();
    }
    expect((await cursorRow(t.db)).lastBlock).toBe(before.lastBlock);
    expect((await detail(t.test, inv.id)).status).toBe('PENDING');
    await watch()(t.db);
    expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
  });

  it('a node behind the head it was asked to scan to is an error; the cursor does not move', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const inv = await tronInvoice(t.test, '2.00');
    await pay(inv.depositAddress, 2_000_000n);
    await rail.node.mine(2);
    const before = await cursorRow(t.db);
    // The heads from an up-to-date node, the ranges from one 3 blocks behind (a load balancer mixing nodes).
    const heads = await readTronHeads(rail.client, net.confirmations);
    proxy.heal();
    proxy.state.nodes = [{ lag: 3 }];
    const client = tronNodeClient({ url: rail.node.url, jsonRpcUrl: proxy.url });
    try {
      await expect(watch({ client, heads })(t.db)).rejects.toThrow(/has no block/);
    } finally {
      proxy.heal();
    }
    expect((await loadCursor(t.db, net))!.lastBlock).toBe(before.lastBlock);
    expect((await detail(t.test, inv.id)).status).toBe('PENDING');
  });
});

describe('a TRON node that hangs', () => {
  let bsc: AnvilChain;
  let hung: Server;
  const held = new Set<Socket>();
  beforeAll(async () => {
    bsc = await startAnvil();
    setNetworkOverride('test', bsc.network('test'));
    // Accepts connections and never answers.
    hung = createServer((s) => void held.add(s));
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
  }, 60_000);
  afterAll(async () => {
    setNetworkOverride('test', rail.net);
    setNetworkOverride('test', undefined, 'BSC');
    for (const s of held) s.destroy();
    await new Promise((r) => hung.close(r));
    await bsc?.stop();
  });

  it('the watcher loop checks the TRON rail and watches TRON in a loop of its own, beside BSC', async () => {
    const t = await createTestTenant();
    clearRailVerdicts();
    const ac = new AbortController();
    const loop = watchChainLoop(t.db, 'test', { signal: ac.signal, runForMs: 30_000 });
    try {
      const inv = await tronInvoice(t.test, '1.25');
      await pay(inv.depositAddress, 1_250_000n);
      await until(async () => (await detail(t.test, inv.id)).status === 'DETECTED', 8_000, 'the TRON payment detected by the loop');
      expect(verdictOf(networkKey(rail.net))).toBe('ok');
    } finally {
      ac.abort();
      await loop;
    }
  }, 40_000);

  it("does not hold up the BSC watcher's detection", async () => {
    const t = await createTestTenant();
    setNetworkOverride('test', { ...rail.net, rpcUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}` });
    const ac = new AbortController();
    const loop = watchChainLoop(t.db, 'test', { signal: ac.signal, runForMs: 30_000 });
    try {
      await until(async () => held.size > 0, 10_000, 'the TRON watcher is waiting on its node');
      const h = invoiceHelpers(() => bsc);
      const inv = await h.create(t.test, { amount: '3.00' });
      await h.pay(t.test, inv.id, '3');
      await until(async () => (await h.detail(t.test, inv.id)).status === 'DETECTED', 8_000, 'the BSC payment was detected while TRON hung');
      expect(held.size, 'TRON still hung').toBeGreaterThan(0);
    } finally {
      ac.abort();
      for (const s of held) s.destroy();
      await loop;
    }
  }, 40_000);
});

async function until(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(50);
  }
}
