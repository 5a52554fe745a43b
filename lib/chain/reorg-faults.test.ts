import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { withTestChain } from '@/lib/testing/test-chain';

let chain: AnvilChain;
let proxy: RpcFaultProxy;
/** The test network read through the fault proxy. */
let net: Network;
const h = invoiceHelpers(() => chain);

withTestChain((c) => {
  chain = c;
});
beforeAll(async () => {
  proxy = await startRpcFaultProxy(chain.rpcUrl);
  net = { ...chain.network('test'), rpcUrl: proxy.url };
});
afterAll(() => proxy?.close());

/** A tenant, and the watcher as its job runs it (a run that cannot read the chain fails, as the job's would). */
async function setup() {
  proxy.heal();
  const t = await createTestTenant();
  const jobs = () =>
    runInvoiceJobs(t.db, net, { watch: { baseBackoffMs: 1, maxRetries: 1 }, retry: { maxAttempts: 2, backoffMs: 0 } }).catch(() => undefined);
  await jobs();
  return { ...t, jobs };
}

/** An invoice paid in full and seen by the watcher (DETECTED); returns it and the payment's block. */
async function detectedInvoice(t: Awaited<ReturnType<typeof setup>>) {
  const inv = await h.create(t.test, { amount: '7.00' });
  const { txHash } = await h.pay(t.test, inv.id, '7');
  const block = Number((await chain.client.getTransactionReceipt({ hash: txHash as Hex })).blockNumber);
  await chain.mine(1);
  await t.jobs();
  expect((await h.detail(t.test, inv.id)).status).toBe('DETECTED');
  return { inv, block };
}

async function expectUntouched(t: Awaited<ReturnType<typeof setup>>, id: string) {
  expect(await h.detail(t.test, id)).toMatchObject({ status: 'DETECTED', amountReceived: '7.00' });
  expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, id))).toHaveLength(1);
}

/** Healthy again: the payment counted once, each invoice event written once (it may have gone on to settle meanwhile). */
async function expectRecovered(t: Awaited<ReturnType<typeof setup>>, id: string) {
  await chain.mine(6);
  await t.jobs();
  await t.jobs();
  expect((await h.detail(t.test, id)).amountReceived).toBe('7.00');
  expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, id))).toHaveLength(1);
  const types = await h.eventTypes(t.db, id);
  expect(types).toContain('invoice.confirmed');
  expect(types.length).toBe(new Set(types).size);
}

describe('reorg check under failing and lagging reads', () => {
  it('reads of recent blocks failing (HTTP 503): no roll-back, and after recovery no event written twice', async () => {
    const t = await setup();
    const { inv, block } = await detectedInvoice(t);
    proxy.state.failWhen = (c) => c.method === 'eth_getBlockByNumber' && /^0x/.test(String(c.params?.[0])) && Number(c.params![0]) >= block;
    for (let i = 0; i < 3; i++) {
      await chain.mine(1);
      await t.jobs();
      await expectUntouched(t, inv.id);
    }
    proxy.heal();
    await expectRecovered(t, inv.id);
  });

  it('a node lagging three blocks is not a reorg: no roll-back, no repeated event', async () => {
    const t = await setup();
    const { inv } = await detectedInvoice(t);
    proxy.state.nodes = [{ lag: 3 }];
    for (let i = 0; i < 3; i++) {
      await t.jobs();
      await expectUntouched(t, inv.id);
    }
    proxy.state.nodes = [{ lag: 0 }, { lag: 3 }];
    for (let i = 0; i < 4; i++) {
      await chain.mine(1);
      await t.jobs();
      await expectUntouched(t, inv.id);
    }
    proxy.heal();
    await expectRecovered(t, inv.id);
  });
});
