import { eq } from 'drizzle-orm';
import type { EvmNetwork } from '@/lib/chain/network';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, settlements, settlementTxs } from '@/db/schema';
import { watchChain } from '@/lib/payments/watch-chain';
import { tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { createSettlements } from './create-settlements';
import { retrySettlement } from './retry-settlement';
import { dueSettlements } from './due-settlements';
import { claimSettlement, runSettlements } from './run-settlements';
import { settleInvoice, type SettleNetwork } from './settle-invoice';
import type { SettlementStep } from '@/lib/chain/send-recorded-tx';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

let chain: AnvilChain;
let net: SettleNetwork<EvmNetwork>;
const h = invoiceHelpers(() => chain);

withTestChain(async (c) => {
  chain = c;
  net = c.network('test') as SettleNetwork<EvmNetwork>;
});

/** A confirmed, paid invoice whose settlement exists but has not run. */
async function confirmedSettlement(amount: string, fee = '0.01') {
  const t = await createTestTenant({ invoiceFeeRate: fee });
  await watchChain(t.db, net);
  const inv = await h.create(t.test, { amount });
  await h.pay(t.test, inv.id, amount);
  await chain.mine(5);
  await watchChain(t.db, net);
  const [id] = await createSettlements(t.db, net);
  expect(id).toBeDefined();
  expect((await h.detail(t.test, inv.id)).status).toBe('PROCESSING_PAYOUT');
  return { ...t, inv, settlementId: id! };
}

const crashAt = (at: SettlementStep) => ({
  afterStep: (step: SettlementStep) => {
    if (step === at) throw new Error(`simulated crash after ${step}`);
  },
});

async function snapshot() {
  return {
    gasNonce: await chain.client.getTransactionCount({ address: chain.addresses.gas }),
    fee: await chain.tokenBalance(chain.addresses.fee),
    hot: await chain.tokenBalance(chain.addresses.hot),
  };
}

async function expectSettledOnce(
  t: Awaited<ReturnType<typeof confirmedSettlement>>,
  before: Awaited<ReturnType<typeof snapshot>>,
  fee: string,
  net_: string,
) {
  const after = await snapshot();
  expect(after.gasNonce - before.gasNonce).toBe(1);
  expect(after.fee - before.fee).toBe(parseUnits(fee, 18));
  expect(after.hot - before.hot).toBe(parseUnits(net_, 18));
  expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(t.inv.depositAddress))).toBe(0n);
  const txs = await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));
  expect(txs.map((x) => x.step).sort()).toEqual(['custody', 'fee', 'gas_topup']);
  expect(txs.every((x) => x.status === 'confirmed')).toBe(true);
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
  expect(credits).toHaveLength(1);
  expect((await h.detail(t.test, t.inv.id)).status).toBe('PAID_OUT');
}

describe('settlement', () => {
  it('killed after the gas top-up: resumes without a second top-up or double send', async () => {
    const t = await confirmedSettlement('20.00');
    const before = await snapshot();
    await expect(settleInvoice(t.db, net, t.settlementId, crashAt('gas_topup'))).rejects.toThrow('simulated crash');
    expect((await snapshot()).gasNonce - before.gasNonce).toBe(1);
    await settleInvoice(t.db, net, t.settlementId);
    await expectSettledOnce(t, before, '0.2', '19.8');
  });

  it('killed after the first transfer: resumes with the custody transfer only', async () => {
    const t = await confirmedSettlement('30.00');
    const before = await snapshot();
    await expect(settleInvoice(t.db, net, t.settlementId, crashAt('fee'))).rejects.toThrow('simulated crash');
    expect((await snapshot()).fee - before.fee).toBe(parseUnits('0.3', 18));
    await settleInvoice(t.db, net, t.settlementId);
    await expectSettledOnce(t, before, '0.3', '29.7');
  });

  it('killed between recording and broadcasting a transfer: the recorded transaction is the one sent', async () => {
    const t = await confirmedSettlement('40.00');
    const before = await snapshot();
    const hooks = {
      beforeBroadcast: (s: SettlementStep) => {
        if (s === 'custody') throw new Error('simulated crash before broadcast');
      },
    };
    await expect(settleInvoice(t.db, net, t.settlementId, hooks)).rejects.toThrow('simulated crash');
    expect((await snapshot()).hot).toBe(before.hot);
    const [recorded] = await t.db
      .select()
      .from(settlementTxs)
      .where(eq(settlementTxs.settlementId, t.settlementId))
      .then((r) => r.filter((x) => x.step === 'custody'));
    await settleInvoice(t.db, net, t.settlementId);
    const [after] = await t.db
      .select()
      .from(settlementTxs)
      .where(eq(settlementTxs.settlementId, t.settlementId))
      .then((r) => r.filter((x) => x.step === 'custody'));
    expect(after!.txHash).toBe(recorded!.txHash);
    await expectSettledOnce(t, before, '0.4', '39.6');
  });

  it('FAILED with invoice.failed after its retries, and a console retry completes it', async () => {
    const t = await confirmedSettlement('15.00');
    const { abi } = tokenArtifact();
    const pause = async (fn: 'pause' | 'unpause') =>
      chain.client.waitForTransactionReceipt({ hash: await chain.faucet.writeContract({ address: chain.token, abi, functionName: fn }) });
    await pause('pause');
    const retry = { maxAttempts: 2, backoffMs: 0 };
    await runSettlements(t.db, net, { retry });
    await runSettlements(t.db, net, { retry });
    let d = await h.detail(t.test, t.inv.id);
    expect(d.status).toBe('FAILED');
    expect(await h.eventTypes(t.db, t.inv.id)).toContain('invoice.failed');
    const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(s).toMatchObject({ status: 'failed', attempts: 2 });
    await pause('unpause');
    await retrySettlement(t.db, t.settlementId);
    expect((await h.detail(t.test, t.inv.id)).status).toBe('PROCESSING_PAYOUT');
    await runSettlements(t.db, net, { retry });
    d = await h.detail(t.test, t.inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountCredited: '14.85' });
  });

  it('a second payment after PAID_OUT is swept by an extra settlement and credited', async () => {
    const t = await confirmedSettlement('5.00');
    await runSettlements(t.db, net);
    await h.pay(t.test, t.inv.id, '1');
    await chain.mine(5);
    await watchChain(t.db, net);
    await createSettlements(t.db, net);
    await runSettlements(t.db, net);
    const d = await h.detail(t.test, t.inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '6.00', amountCredited: '5.94', feeAmount: '0.06' });
    expect(d.settlements.map((s: { kind: string; status: string }) => `${s.kind}:${s.status}`)).toEqual(['invoice:completed', 'extra:completed']);
    expect(await h.eventTypes(t.db, t.inv.id)).toContain('invoice.overpaid');
  });

  it("the fan-out's due list and the claim agree: due until claimed, then neither lists nor claims it again", async () => {
    const t = await confirmedSettlement('3.00');
    expect(await dueSettlements(t.db, net)).toContainEqual({ id: t.settlementId, attempts: 0 });
    expect(await claimSettlement(t.db, net, t.settlementId)).toBe(t.settlementId);
    expect((await dueSettlements(t.db, net)).map((s) => s.id)).not.toContain(t.settlementId);
    expect(await claimSettlement(t.db, net, t.settlementId)).toBeNull();
    await settleInvoice(t.db, net, t.settlementId); // finish it, as the claimant would
    expect((await dueSettlements(t.db, net)).map((s) => s.id)).not.toContain(t.settlementId);
  });
});
