import { eq } from 'drizzle-orm';
import type { EvmNetwork } from '@/lib/chain/network';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlements, settlementTxs } from '@/db/schema';
import { watchChain } from '@/lib/payments/watch-chain';
import type { AnvilChain } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { withTestChain } from '@/lib/testing/test-chain';
import { createSettlements } from './create-settlements';
import { runSettlements } from './run-settlements';
import type { SettleNetwork } from './settle-invoice';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

let chain: AnvilChain;
let direct: SettleNetwork<EvmNetwork>;
let proxy: RpcFaultProxy;
/** The settlement's network read through the fault proxy. */
let net: SettleNetwork<EvmNetwork>;
const h = invoiceHelpers(() => chain);

withTestChain((c) => {
  chain = c;
  direct = c.network('test') as SettleNetwork<EvmNetwork>;
});
beforeAll(async () => {
  proxy = await startRpcFaultProxy(chain.rpcUrl);
  net = { ...direct, rpcUrl: proxy.url };
});
afterAll(() => proxy?.close());

async function confirmedSettlement(amount: string) {
  proxy.heal();
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  await watchChain(t.db, direct);
  const inv = await h.create(t.test, { amount });
  await h.pay(t.test, inv.id, amount);
  await chain.mine(5);
  await watchChain(t.db, direct);
  const [id] = await createSettlements(t.db, direct);
  return { ...t, inv, settlementId: id!, fee: await chain.tokenBalance(chain.addresses.fee), hot: await chain.tokenBalance(chain.addresses.hot) };
}

async function expectPaidOutOnce(t: Awaited<ReturnType<typeof confirmedSettlement>>, fee: string, rest: string) {
  expect((await h.detail(t.test, t.inv.id)).status).toBe('PAID_OUT');
  expect((await chain.tokenBalance(chain.addresses.fee)) - t.fee).toBe(parseUnits(fee, 18));
  expect((await chain.tokenBalance(chain.addresses.hot)) - t.hot).toBe(parseUnits(rest, 18));
  expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(t.inv.depositAddress))).toBe(0n);
  expect(await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId))).toHaveLength(3);
}

describe('settlement when chain reads fail or lag', () => {
  it('receipt look-ups failing: attempts do not run out, nothing is sent twice, PAID_OUT once receipts return', async () => {
    const t = await confirmedSettlement('10.00');
    proxy.state.failMethods.add('eth_getTransactionReceipt');
    try {
      for (let i = 0; i < 4; i++) await runSettlements(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
      const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
      expect(s!.status).not.toBe('failed');
      expect((await h.detail(t.test, t.inv.id)).status).toBe('PROCESSING_PAYOUT');
    } finally {
      proxy.heal();
    }
    await runSettlements(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await expectPaidOutOnce(t, '0.10', '9.90');
    expect(await h.eventTypes(t.db, t.inv.id)).not.toContain('invoice.failed');
  });

  it('two nodes round-robin, one lagging three blocks: the deposit address never reuses a nonce', async () => {
    const t = await confirmedSettlement('20.00');
    proxy.state.nodes = [{ lag: 0 }, { lag: 3 }];
    // Blocks keep coming, as on BSC: receipt waits poll on new blocks.
    const miner = setInterval(() => void chain.mine(1).catch(() => undefined), 300);
    try {
      await runSettlements(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    } finally {
      clearInterval(miner);
      proxy.heal();
    }
    await runSettlements(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await expectPaidOutOnce(t, '0.20', '19.80');
    const txs = await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));
    const fromDeposit = txs.filter((x) => x.step !== 'gas_topup').map((x) => x.nonce);
    expect(new Set(fromDeposit).size).toBe(fromDeposit.length);
  });

  it("one gas top-up's broadcast refused: the next settlement does not wait behind its nonce gap", async () => {
    const a = await confirmedSettlement('30.00');
    const b = await confirmedSettlement('40.00');
    // a's gas top-up never reaches the node (both tries of the transport): the gas wallet's nonce has a gap under b's top-up.
    let first: unknown;
    let refused = 0;
    proxy.state.failWhen = (call) => {
      if (call.method !== 'eth_sendRawTransaction') return false;
      first ??= call.params?.[0];
      return call.params?.[0] === first && ++refused <= 2;
    };
    try {
      await runSettlements(a.db, net, { max: 2, retry: { maxAttempts: 5, backoffMs: 600_000 } });
    } finally {
      proxy.heal();
    }
    expect(refused).toBeGreaterThan(0);
    const [sa] = await a.db.select().from(settlements).where(eq(settlements.id, a.settlementId));
    expect(sa!.status).not.toBe('completed'); // a waits for its retry (10 minutes away)
    // b was paid out in the same pass: its wait filled the gap with a's recorded bytes instead of timing out.
    expect((await h.detail(b.test, b.inv.id)).status).toBe('PAID_OUT');
    await a.db.update(settlements).set({ nextAttemptAt: new Date() }).where(eq(settlements.id, a.settlementId));
    await runSettlements(a.db, net, { only: a.settlementId });
    // Both paid out exactly once: fee and custody got both invoices' shares, nothing more.
    expect((await h.detail(a.test, a.inv.id)).status).toBe('PAID_OUT');
    expect((await chain.tokenBalance(chain.addresses.fee)) - a.fee).toBe(parseUnits('0.70', 18));
    expect((await chain.tokenBalance(chain.addresses.hot)) - a.hot).toBe(parseUnits('69.30', 18));
  }, 180_000);
});
