import { and, eq } from 'drizzle-orm';
import { createPublicClient, custom, getAddress, type PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { chainCursors, chainTransfers } from '@/db/schema';
import { type EvmNetwork, type ReadyNetwork } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { watchChain } from '@/lib/payments/watch-chain';

let chain: AnvilChain;
let net: EvmNetwork;
const h = invoiceHelpers(() => chain);

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

async function setup() {
  const t = await createTestTenant();
  const jobs = (client?: PublicClient) => runInvoiceJobs(t.db, net, { watch: { client, baseBackoffMs: 1 }, retry: { maxAttempts: 2, backoffMs: 0 } });
  await jobs();
  return { ...t, jobs };
}

const reorg = (depth: number) => chain.client.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });

/** A client over the real chain whose eth_getLogs answers -32005 for ranges wider than `maxRange` blocks. */
function limitedClient(maxRange: number, calls: [number, number][]): PublicClient {
  return createPublicClient({
    cacheTime: 0,
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          if (method === 'eth_getLogs') {
            const [{ fromBlock, toBlock }] = params as [{ fromBlock: string; toBlock: string }];
            const range: [number, number] = [Number(fromBlock), Number(toBlock)];
            if (range[1] - range[0] + 1 > maxRange) throw Object.assign(new Error('query returned more than 10000 results'), { code: -32005 });
            calls.push(range);
          }
          return chain.client.request({ method, params } as never);
        },
      },
      { retryCount: 0 },
    ),
  });
}

describe('chain watcher', () => {
  it("ignores another token's Transfer to a deposit address", async () => {
    const t = await setup();
    const inv = await h.create(t.test, { amount: '5.00' });
    const other = await chain.deployToken('Other USD');
    await chain.mint(getAddress(inv.depositAddress), '5', other);
    await chain.mine(6);
    await t.jobs();
    const d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountReceived: '0.00', payments: [] });
  });

  it('reorg of a 0-confirmation payment: removed, invoice back to PENDING, never credited', async () => {
    const t = await setup();
    const inv = await h.create(t.test, { amount: '7.00' });
    await h.pay(t.test, inv.id, '7');
    await t.jobs();
    expect((await h.detail(t.test, inv.id)).status).toBe('DETECTED');
    await reorg(1);
    await t.jobs();
    let d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountReceived: '0.00', payments: [], txHashes: [] });
    await chain.mine(6);
    await t.jobs();
    d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountCredited: '0.00' });
    expect(await h.eventTypes(t.db, inv.id)).not.toContain('invoice.confirmed');
  });

  it('reorg of a 2-confirmation payment: invoice back to PARTIALLY_PAID, only the surviving payment is credited', async () => {
    const t = await setup();
    const inv = await h.create(t.test, { amount: '10.00' });
    await h.pay(t.test, inv.id, '4');
    await chain.mine(3);
    await h.pay(t.test, inv.id, '6');
    await chain.mine(2);
    await t.jobs();
    let d = await h.detail(t.test, inv.id);
    expect(d.status).toBe('DETECTED');
    expect(d.payments[1].confirmations).toBe(2);
    await reorg(3);
    await t.jobs();
    d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '4.00' });
    expect(d.payments).toHaveLength(1);
    await chain.mine(10);
    await t.jobs();
    d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PARTIALLY_PAID', amountCredited: '0.00' });
  });

  it('restart mid-range and rescans never count a transfer twice', async () => {
    const t = await setup();
    const inv = await h.create(t.test, { amount: '3.00' });
    const cursorBefore = (
      await t.db
        .select()
        .from(chainCursors)
        .where(and(eq(chainCursors.mode, 'test'), eq(chainCursors.chainId, net.chainId)))
    )[0]!;
    await h.pay(t.test, inv.id, '1');
    await chain.mine(1);
    await h.pay(t.test, inv.id, '1');
    // First run dies on the second range (transient RPC failure beyond its retries).
    let n = 0;
    const flaky = createPublicClient({
      cacheTime: 0,
      transport: custom(
        {
          async request({ method, params }: { method: string; params?: unknown }) {
            if (method === 'eth_getLogs' && ++n >= 2) throw new Error('connection reset');
            return chain.client.request({ method, params } as never);
          },
        },
        { retryCount: 0 },
      ),
    });
    await expect(
      watchChain(t.db, net as ReadyNetwork<'rpcUrl' | 'tokenAddress', EvmNetwork>, { client: flaky, maxRange: 1, maxRetries: 1, baseBackoffMs: 1 }),
    ).rejects.toThrow();
    await t.jobs();
    expect((await h.detail(t.test, inv.id)).amountReceived).toBe('2.00');
    // Rewind the cursor as if its last write was lost: the rescan finds both transfers again and inserts neither.
    await t.db
      .update(chainCursors)
      .set({ lastBlock: cursorBefore.lastBlock, lastBlockHash: cursorBefore.lastBlockHash })
      .where(and(eq(chainCursors.mode, 'test'), eq(chainCursors.chainId, net.chainId)));
    await t.jobs();
    const d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '2.00' });
    expect(d.payments).toHaveLength(2);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toHaveLength(2);
    expect((await h.eventTypes(t.db, inv.id)).filter((e) => e === 'invoice.detected')).toHaveLength(2);
  });

  it('shrinks the range on -32005 and never skips a block', async () => {
    const t = await setup();
    const inv = await h.create(t.test, { amount: '2.00' });
    const start = Number(await chain.client.getBlockNumber());
    await chain.mine(9);
    await h.pay(t.test, inv.id, '2');
    await chain.mine(10);
    const head = Number(await chain.client.getBlockNumber());
    const calls: [number, number][] = [];
    await t.jobs(limitedClient(3, calls));
    expect(calls.every(([a, b]) => b - a + 1 <= 3)).toBe(true);
    const sorted = [...calls].sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]![0]).toBe(sorted[i - 1]![1] + 1);
    expect(sorted[0]![0]).toBeLessThanOrEqual(start + 1);
    expect(sorted.at(-1)![1]).toBe(head);
    expect((await h.detail(t.test, inv.id)).status).not.toBe('PENDING');
  });
});
