import { and, asc, eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import {
  balanceOf,
  createInvoice,
  invoiceDetail,
  ledgerSums,
  railsTenant,
  sendFromCustomer,
  sendToken,
  withTwoRails,
  type TwoRails,
} from '@/lib/testing/two-rails';
import { updateWrongNetworkPolicy } from '@/lib/tenants/update-wrong-network-policy';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { Decimal } from '@/lib/money';
import { getCheckout } from '@/lib/checkout/get-checkout';
import { setNetworkOverride } from '@/lib/chain/network';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Held payments (another token, or another network under the hold policy) are
 * resolved by the merchant: credited to the balance of the token they came in,
 * or sent back to their sender. Either way the money is swept off the deposit
 * address on its own network first, exactly once.
 */
let rails: TwoRails;
let bsc: AnvilChain;
let eth: AnvilChain;
withTwoRails((r) => {
  rails = r;
  ({ bsc, eth } = r);
});

const path = (inv: { id: string }, paymentId: string, action: 'credit' | 'refund') => `/v1/invoices/${inv.id}/held-payments/${paymentId}/${action}`;

describe('resolving held payments', () => {
  it('USDC sent to a USDT invoice is credited to the USDC balance after its own sweep, and never counts towards the invoice', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '15.00' });
    await sendToken(bsc, 'USDC', inv.depositAddress, '7');
    await sendToken(bsc, 'USDT', inv.depositAddress, '15');
    await bsc.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(held).toMatchObject({ token: 'USDC', mismatch: 'token', status: 'held' });
    const [hotBefore, feeBefore] = [
      await bsc.tokenBalance(bsc.addresses.hot, bsc.tokenOf('USDC')),
      await bsc.tokenBalance(bsc.addresses.fee, bsc.tokenOf('USDC')),
    ];

    const credit = await call('POST', path(inv, held.id, 'credit'), { key: t.test, body: {} });
    expect(credit.status, credit.text).toBe(200);
    expect(credit.body).toMatchObject({ id: held.id, status: 'credited', token: 'USDC' });
    // Credited once the sweep is done, not before.
    expect((await balanceOf(t.test, 'USDC')).available).toBe('0.00');
    await t.jobs();
    await t.jobs();
    expect((await balanceOf(t.test, 'USDC')).available).toBe('6.93');
    const d = await invoiceDetail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '15.00', amountCredited: '14.85' });
    // The held payment's own sweep is named as the product names it (issue 31: one name, "held").
    expect(d.settlements.map((x: { kind: string; token: string }) => `${x.kind}:${x.token}`).sort()).toEqual(['held_credit:USDC', 'invoice:USDT']);
    expect(await bsc.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), bsc.tokenOf('USDC'))).toBe(0n);
    expect((await bsc.tokenBalance(bsc.addresses.hot, bsc.tokenOf('USDC'))) - hotBefore).toBe(parseUnits('6.93', 18));
    expect((await bsc.tokenBalance(bsc.addresses.fee, bsc.tokenOf('USDC'))) - feeBefore).toBe(parseUnits('0.07', 18));
    expect((await balanceOf(t.test)).available).toBe('14.85');
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
    const credited = await t.db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, inv.id), eq(events.type, 'held_payment.credited')));
    expect(credited.map((e) => e.data)).toMatchObject([{ id: held.id, status: 'credited', token: 'USDC', invoiceToken: 'USDT' }]);

    // Once only, whichever way.
    for (const action of ['credit', 'refund'] as const) {
      const again = await call('POST', path(inv, held.id, action), { key: t.test, body: {} });
      expect(again.status, action).toBe(409);
    }
    await t.jobs();
    expect((await balanceOf(t.test, 'USDC')).available).toBe('6.93');
  });

  it('a held wrong-network payment is sent back to its sender on its own network, less only the network fee, exactly once', async () => {
    // Ethereum's flat network fee (issue 30 §4): the payer pays it from what comes back, by default.
    const ethNet = { ...rails.ethNet, networkFee: '0.50', minWithdrawal: '1.00' };
    setNetworkOverride('test', ethNet, 'ETHEREUM');
    const t = await railsTenant(rails);
    await updateWrongNetworkPolicy(
      t.db,
      { tenantId: t.tenant.id, mode: 'test' },
      { kind: 'user', id: t.tenant.id, label: 'owner@test' },
      { wrongNetworkPolicy: 'hold' },
    );
    const inv = await createInvoice(t.test, { amount: '20.00' });
    const customer = await sendFromCustomer(eth, 'USDT', inv.depositAddress, '8');
    await eth.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(held).toMatchObject({ chain: 'ETHEREUM', token: 'USDT', mismatch: 'network', status: 'held' });
    const sender = EVM_ADDRESS_CODEC.parse(held.fromAddress);
    expect(sender).toBe(customer);
    const senderBefore = await eth.tokenBalance(sender, eth.tokenOf('USDT'));

    // Another tenant's key, or a key without withdrawals:write, cannot.
    const other = await createTestTenant();
    expect((await call('POST', path(inv, held.id, 'refund'), { key: other.test, body: {} })).status).toBe(404);

    // A burst of refund requests: one wins, the rest are 409s.
    const burst = await Promise.all(Array.from({ length: 5 }, () => call('POST', path(inv, held.id, 'refund'), { key: t.test, body: {} })));
    expect(burst.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const refunding = burst.find((r) => r.status === 200)!.body;
    expect(refunding).toMatchObject({ status: 'refunding', refundAddress: sender, withdrawalId: null });

    for (let i = 0; i < 3; i++) {
      await t.jobs();
      await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
      await eth.mine(5);
    }
    await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
    const d = await invoiceDetail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountReceived: '0.00', payments: [] });
    const done = d.heldPayments[0];
    expect(done).toMatchObject({ status: 'refunded', withdrawalId: expect.stringMatching(/^wd_/) });
    const wd = (await call('GET', `/v1/withdrawals/${done.withdrawalId}`, { key: t.test })).body;
    // Issue 30 §2: no percentage withdrawal fee on money the merchant never kept (before: 7.92 sent, 0.08 fee); the
    // network fee comes out of what goes back, and the merchant nets 0.
    expect(wd).toMatchObject({
      status: 'COMPLETED',
      chain: 'ETHEREUM',
      token: 'USDT',
      amount: '8.00',
      feeAmount: '0.50',
      netAmount: '7.50',
      destinationAddress: sender,
    });
    expect((await eth.tokenBalance(sender, eth.tokenOf('USDT'))) - senderBefore).toBe(7_500_000n);
    expect(await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), eth.tokenOf('USDT'))).toBe(0n);
    expect((await balanceOf(t.test)).available).toBe('0.00');
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
    // Announced once each: detected, then refunded with the withdrawal.
    const announced = await t.db.select().from(events).where(eq(events.subjectId, inv.id)).orderBy(asc(events.createdAt), asc(events.id));
    expect(announced.filter((e) => e.type.startsWith('held_payment.')).map((e) => e.type)).toEqual([
      'held_payment.detected',
      'held_payment.refunded',
    ]);
    expect(announced.find((e) => e.type === 'held_payment.refunded')!.data).toMatchObject({
      status: 'refunded',
      withdrawalId: done.withdrawalId,
    });
    // The payer sees it on the checkout.
    expect((await getCheckout(t.db, inv.id))!.heldPayments).toMatchObject([{ amount: '8.00', token: 'USDT', status: 'refunded' }]);
    // Still once: more passes send nothing more.
    await t.jobs();
    await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
    expect((await eth.tokenBalance(sender, eth.tokenOf('USDT'))) - senderBefore).toBe(7_500_000n);
    setNetworkOverride('test', rails.ethNet, 'ETHEREUM');
  });

  it('a refund too small to pay its own fee, or to one of our own wallets, is refused and the payment stays held', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '5.00' });
    await sendFromCustomer(bsc, 'USDC', inv.depositAddress, '0.005');
    await sendToken(bsc, 'USDC', inv.depositAddress, '3'); // from the faucet, one of the gateway's test wallets
    await bsc.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments;
    expect(held).toHaveLength(2);
    for (const [p, code, message] of [
      [held.find((h: { amount: string }) => h.amount === '0.005'), 'invalid_state', /too little/],
      [held.find((h: { amount: string }) => h.amount === '3.00'), 'sender_not_refundable', /own wallets on BNB Smart Chain/],
    ] as const) {
      const res = await call('POST', path(inv, p.id, 'refund'), { key: t.test, body: {} });
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    expect((await invoiceDetail(t.test, inv.id)).heldPayments.map((m: { status: string }) => m.status)).toEqual(['held', 'held']);
  });

  it('the old names still work: the deprecated /mismatched-payments path credits, API version 2026-11-01 repeats the list as mismatchedPayments, an endpoint subscribed to mismatched_payment.* gets held_payment.*', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '5.00' });
    await sendToken(bsc, 'USDC', inv.depositAddress, '3');
    await bsc.mine(5);
    await t.jobs();
    const d = await invoiceDetail(t.test, inv.id);
    expect(d).not.toHaveProperty('mismatchedPayments');
    // The old field belongs to the version before the rename (lib/api/versions.ts).
    const old = await call('GET', `/v1/invoices/${inv.id}`, { key: t.test, headers: { 'Gateway-Version': '2026-11-01' } });
    expect(old.body.mismatchedPayments).toEqual(d.heldPayments);
    const held = d.heldPayments[0];
    expect(held).toMatchObject({ token: 'USDC', status: 'held' });

    const credit = await call('POST', `/v1/invoices/${inv.id}/mismatched-payments/${held.id}/credit`, { key: t.test, body: {} });
    expect(credit.status, credit.text).toBe(200);
    expect(credit.body).toMatchObject({ id: held.id, status: 'credited', token: 'USDC' });
    expect((await call('POST', path(inv, held.id, 'credit'), { key: t.test, body: {} })).status).toBe(409);

    const endpoint = await call('POST', '/v1/webhooks/endpoints', {
      key: t.test,
      body: {
        url: 'https://example.com/hook',
        eventsSubscribed: ['invoice.paid_out', 'mismatched_payment.credited', 'mismatched_payment.refund_failed'],
      },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    expect(endpoint.body.eventsSubscribed).toEqual(['invoice.paid_out', 'held_payment.credited', 'held_payment.refund_failed']);
    const both = await call('POST', '/v1/webhooks/endpoints', {
      key: t.test,
      body: { url: 'https://example.com/hook2', eventsSubscribed: ['held_payment.credited', 'mismatched_payment.credited'] },
    });
    expect(both.status).toBe(400);
  });
});
