import { and, asc, eq } from 'drizzle-orm';
import { type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { events, withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { getCheckout } from '@/lib/checkout/get-checkout';
import { resetEnvCache } from '@/lib/env';
import { Decimal } from '@/lib/money';
import { freePort, tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import {
  balanceOf,
  createInvoice,
  invoiceDetail,
  ledgerSums,
  railsTenant,
  sendFromCustomer,
  withTwoRails,
  type TwoRails,
} from '@/lib/testing/two-rails';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Sending back a held payment reaches a person, or waits (issue 30, section 3): never to a contract or a
 * known exchange hot wallet (the merchant sends a claim link instead), and `refunded` only once the
 * withdrawal completed; a failed one makes the payment held again, with the reason, and it can be retried.
 */
let rails: TwoRails;
let bsc: AnvilChain;
withTwoRails((r) => {
  rails = r;
  bsc = r.bsc;
});

const refundPath = (inv: { id: string }, paymentId: string) => `/v1/invoices/${inv.id}/held-payments/${paymentId}/refund`;

/** 8 USDC from a customer's own wallet to a USDT invoice on BSC: held (another token). */
async function heldUsdc() {
  const t = await railsTenant(rails);
  const inv = await createInvoice(t.test, { amount: '20.00' });
  const customer = await sendFromCustomer(bsc, 'USDC', inv.depositAddress, '8');
  await bsc.mine(5);
  await t.jobs();
  const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
  expect(held).toMatchObject({ token: 'USDC', status: 'held', fromAddress: customer });
  return { t, inv, held, customer: EVM_ADDRESS_CODEC.parse(customer) };
}

const heldNow = async (key: string, inv: { id: string }) => (await invoiceDetail(key, inv.id)).heldPayments[0];

describe('sending a held payment back', () => {
  it('is refused to a contract, pointing to a claim link; an EIP-7702 account (still held by its key) is sent back to', async () => {
    const { t, inv, held, customer } = await heldUsdc();
    try {
      await bsc.client.setCode({ address: customer, bytecode: '0x6080604052' });
      const res = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
      expect(res.status, res.text).toBe(409);
      expect(res.body.code).toBe('sender_not_refundable');
      expect(res.body.message).toContain(`the sender ${customer} is a contract on BNB Smart Chain`);
      expect(res.body.message).toContain('refund claim link');
      expect((await heldNow(t.test, inv)).status).toBe('held');

      await bsc.client.setCode({ address: customer, bytecode: `0xef0100${'ab'.repeat(20)}` });
      const delegated = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
      expect(delegated.status, delegated.text).toBe(200);
    } finally {
      await bsc.client.setCode({ address: customer, bytecode: '0x' });
    }
  });

  it("is refused to a wallet on the operator's exchange list, and waits (503) when the sender's code cannot be read", async () => {
    const { t, inv, held, customer } = await heldUsdc();
    const saved = process.env.KNOWN_EXCHANGE_WALLETS;
    try {
      process.env.KNOWN_EXCHANGE_WALLETS = `0x${'12'.repeat(20)}, ${customer.toLowerCase()}`;
      resetEnvCache();
      const res = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
      expect([res.status, res.body.code]).toEqual([409, 'sender_not_refundable']);
      expect(res.body.message).toContain(`the sender ${customer} is a known exchange hot wallet`);
    } finally {
      if (saved === undefined) delete process.env.KNOWN_EXCHANGE_WALLETS;
      else process.env.KNOWN_EXCHANGE_WALLETS = saved;
      resetEnvCache();
    }
    // A node that does not answer: no code is never assumed.
    setNetworkOverride('test', { ...rails.bscNet, rpcUrl: `http://127.0.0.1:${await freePort()}` });
    try {
      const res = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
      expect([res.status, res.body.code], res.text).toEqual([503, 'service_unavailable']);
    } finally {
      setNetworkOverride('test', rails.bscNet);
    }
    expect((await heldNow(t.test, inv)).status).toBe('held');
  });

  it('is refunded only when its withdrawal completes; a failed one makes it held again with the reason, and a retry pays the sender once', async () => {
    const { t, inv, held, customer } = await heldUsdc();
    const usdc = bsc.tokenOf('USDC');
    const before = await bsc.tokenBalance(customer, usdc);
    const sent = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
    expect(sent.status, sent.text).toBe(200);
    // Swept, credited, and its withdrawal created: still refunding, not refunded.
    for (let i = 0; i < 10 && !(await heldNow(t.test, inv)).withdrawalId; i++) {
      await t.jobs();
      await bsc.mine(5);
    }
    const refunding = await heldNow(t.test, inv);
    expect(refunding).toMatchObject({ status: 'refunding', withdrawalId: expect.stringMatching(/^wd_/) });

    // The token is paused: the transfer would revert, the withdrawal fails.
    const { abi } = tokenArtifact();
    const pause = (fn: 'pause' | 'unpause') =>
      bsc.faucet.writeContract({ address: usdc, abi, functionName: fn }).then((hash: Hex) => bsc.client.waitForTransactionReceipt({ hash }));
    await pause('pause');
    try {
      await processWithdrawals(t.db, rails.bscNet as LaneNetwork);
    } finally {
      await pause('unpause');
    }
    const [failed] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, refunding.withdrawalId));
    expect(failed!.status).toBe('FAILED');
    const again = await heldNow(t.test, inv);
    expect(again).toMatchObject({
      status: 'held',
      refundFailureReason: expect.stringMatching(/^Sending it back failed: The token transfer would revert/),
    });
    // The money is in the balance (the failed withdrawal returned amount + fee); the payer is told.
    expect((await balanceOf(t.test, 'USDC')).available).toBe('8.00');
    expect((await getCheckout(t.db, inv.id))!.heldPayments).toMatchObject([{ status: 'held', refundFailed: true }]);

    // Sent back again: the withdrawal is created at once (no second sweep) and completes.
    const retry = await call('POST', refundPath(inv, held.id), { key: t.test, body: {} });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body).toMatchObject({ status: 'refunding', refundFailureReason: null, withdrawalId: expect.stringMatching(/^wd_/) });
    expect(retry.body.withdrawalId).not.toBe(refunding.withdrawalId);
    for (let i = 0; i < 3; i++) {
      await processWithdrawals(t.db, rails.bscNet as LaneNetwork);
      await bsc.mine(5);
    }
    await processWithdrawals(t.db, rails.bscNet as LaneNetwork);
    expect(await heldNow(t.test, inv)).toMatchObject({ status: 'refunded', withdrawalId: retry.body.withdrawalId });
    // All 8.00: no percentage fee on money the merchant never kept, and BSC's network fee is 0 by default.
    expect((await bsc.tokenBalance(customer, usdc)) - before).toBe(8_000_000_000_000_000_000n);
    expect(await bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), usdc)).toBe(0n);
    expect((await balanceOf(t.test, 'USDC')).available).toBe('0.00');
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
    const announced = await t.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.subjectId, inv.id)))
      // In the order they happened (without it the rows come back in any order).
      .orderBy(asc(events.createdAt), asc(events.id));
    expect(announced.map((e) => e.type).filter((type) => type.startsWith('held_payment.'))).toEqual([
      'held_payment.detected',
      'held_payment.refund_failed',
      'held_payment.refunded',
    ]);
    expect((await getCheckout(t.db, inv.id))!.heldPayments).toMatchObject([{ status: 'refunded', refundFailed: false }]);
  });
});
