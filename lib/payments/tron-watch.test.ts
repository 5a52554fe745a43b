import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainCursors, chainTransfers, settlements } from '@/db/schema';
import { loadCursor, saveCursor } from '@/lib/chain/cursor';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { setNetworkOverride, type ReadyNetwork, type TronNetwork } from '@/lib/chain/network';
import { tronNodeClient } from '@/lib/chain/tron/node-client';
import { readTronBlock, readTronHeads } from '@/lib/chain/tron/read-chain';
import { sleep } from '@/lib/async/sleep';
import { startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { checkRail } from '@/lib/chain/check-rail';
import { collectMetrics } from '@/lib/monitoring/collect-metrics';
import { readiness } from '@/lib/monitoring/readiness';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { createTestTenant } from '@/lib/testing/fixtures';
import { clearRailVerdicts, networkKey, verdictOf } from '@/lib/chain/rail-stops';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { watchChainLoop } from './watch-loop';
import { watchTron } from './watch-tron';
import { expireInvoices } from '@/lib/invoices/expire-invoices';
import { createSettlements } from '@/lib/settlements/create-settlements';

/*
 * The TRON watcher against the stand-in node (docs/tron.md §10): invoices created through the API, paid
 * by TronWeb-signed USDT transfers (6 decimals), found by watchTron, confirmed once solidified.
 */
let rail: TronRail;
let net: ReadyNetwork<'rpcUrl' | 'tokenAddress', TronNetwork>;
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

  it('sweeps a late payment to an expired invoice only once solidified, whatever the configured confirmations', async () => {
    const t = await createTestTenant();
    const few = { ...rail.net, confirmations: 5 };
    const run = (db: typeof t.db) => watchTron(db, few, { baseBackoffMs: 1, maxRetries: 1 });
    await run(t.db);
    setNetworkOverride('test', few);
    try {
      const inv = await tronInvoice(t.test, '4.00');
      await t.db.execute(sql`update invoices set expires_at = now() - interval '1 day', confirmations_required = 5 where id = ${inv.id}`);
      await expireInvoices(t.db, few);
      expect((await detail(t.test, inv.id)).status).toBe('EXPIRED');
      await pay(inv.depositAddress, 4_000_000n);
      await rail.node.mine(10);
      await run(t.db);
      // Other tests' payments on this network may be swept too: count this invoice's settlements only.
      const settled = async () => {
        await createSettlements(t.db, few);
        return (await t.db.select().from(settlements).where(eq(settlements.invoiceId, inv.id))).length;
      };
      // 10 blocks on top: past 5 confirmations, not solidified (19): the payment could still be undone.
      expect(await settled()).toBe(0);
      await rail.node.mine(9);
      await run(t.db);
      expect(await settled()).toBe(1);
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

describe('the test helper on TRON', () => {
  it('pays a TRON test invoice by a TronWeb-signed USDT transfer from the faucet; the watcher finds it', async () => {
    const t = await createTestTenant();
    await watch()(t.db);
    const faucet = payer();
    setNetworkOverride('test', { ...rail.net, faucetKey: `0x${faucet.privateKey}` });
    try {
      const inv = await tronInvoice(t.test, '7.00');
      const res = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '7.000001' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ invoiceId: inv.id, from: faucet.address, to: inv.depositAddress, amount: '7.000001' });
      expect(res.body.txHash).toMatch(/^[0-9a-f]{64}$/);
      await watch()(t.db);
      const d = await detail(t.test, inv.id);
      expect(d).toMatchObject({ status: 'OVERPAID', amountReceived: '7.000001' });
      expect(d.payments).toMatchObject([{ txHash: res.body.txHash }]);
      // Test mode only, as on EVM: a live key does not reach it.
      const live = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.live, body: { amount: '1' } });
      expect(live.status).toBe(404);
    } finally {
      setNetworkOverride('test', rail.net);
    }
  });

  it('answers 503 when the TRON network has no faucet', async () => {
    const t = await createTestTenant();
    const inv = await tronInvoice(t.test, '1.00');
    const res = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '1' } });
    expect(res.status, res.text).toBe(503);
    expect(res.body.message).toMatch(/faucetKey/);
  });
});

describe('the TRON rail check, readiness and metrics', () => {
  afterAll(() => clearRailVerdicts());

  it('passes the stand-in (chain id, USDT decimals and symbol read through the TRON API)', async () => {
    clearRailVerdicts();
    expect(await checkRail(rail.net)).toEqual([]);
    expect(verdictOf(networkKey(rail.net))).toBe('ok');
  });

  it('stops the network on another chain id, the token on wrong decimals or no contract', async () => {
    const [wrongChain] = await checkRail({ ...rail.net, chainId: 728126428 });
    expect(wrongChain).toMatchObject({ chain: 'TRON', variable: 'TEST_TRON_CHAIN_ID' });
    expect(wrongChain!.message).toMatch(new RegExp(`is chain ${rail.net.chainId}, not the configured 728126428`));
    const usdt = rail.net.tokens![0]!;
    const [decimals] = await checkRail({ ...rail.net, tokens: [{ ...usdt, decimals: 18 }] });
    expect(decimals!.message).toMatch(/has 6 decimals, the configuration says 18/);
    const nowhere = TRON_ADDRESS_CODEC.wireForm('0x1111111111111111111111111111111111111111');
    const [none] = await checkRail({ ...rail.net, tokenAddress: nowhere, tokens: [{ ...usdt, address: nowhere }] });
    expect(none!.message).toMatch(/has no decimals\(\): not a token contract/);
  });

  it('an unreadable node is an error, never a pass', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    const gone = { ...rail.net, rpcUrl: url };
    await expect(checkRail(gone)).rejects.toThrow(/TEST_TRON_RPC_URL: the rail check could not read eth_chainId/);
    expect(verdictOf(networkKey(gone))).toBeUndefined();
  });

  it('readiness and /metrics read the TRON head through the TRON client', async () => {
    const t = await createTestTenant();
    const { head } = await readTronHeads(rail.client);
    const r = await readiness();
    expect(r.networks['test:TRON']).toBe('ok');
    const text = await collectMetrics(t.db);
    const shown = Number(/gateway_chain_head_block\{mode="test",chain="TRON"\} (\d+)/.exec(text)?.[1]);
    expect(shown).toBeGreaterThanOrEqual(head.number);
    expect(text).toContain('gateway_chain_rpc_up{mode="test",chain="TRON"} 1');
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
