import { and, eq } from 'drizzle-orm';
import { type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { listHeldPayments, HeldPaymentFilter } from '@/lib/console/list-held-payments';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
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
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * A reorg deeper than the confirmations (anvil_reorg) under a held payment that the merchant
 * already resolved: money moved on it (a sweep, a ledger credit, a refund withdrawal), so its row
 * must stay, flagged for the merchant and the console, and the payment seen again on the new
 * chain must not become a fresh held payment that could be credited or sent back a second time.
 */
let rails: TwoRails;
let bsc: AnvilChain;
let eth: AnvilChain;
withTwoRails((r) => {
  rails = r;
  ({ bsc, eth } = r);
});

const path = (inv: { id: string }, paymentId: string, action: 'credit' | 'refund') => `/v1/invoices/${inv.id}/held-payments/${paymentId}/${action}`;

/** Replaces every block from `fromBlock` up to the head by empty ones: the transactions in them are gone. */
async function reorgFrom(chain: AnvilChain, fromBlock: bigint) {
  const head = await chain.client.getBlockNumber();
  await chain.client.request({ method: 'anvil_reorg' as never, params: [Number(head - fromBlock + 1n), []] as never });
}

const rawTx = (chain: AnvilChain, hash: Hex) =>
  chain.client.request({ method: 'eth_getRawTransactionByHash' as never, params: [hash] as never }) as Promise<Hex>;

/** The same signed transaction mined again (after a reorg dropped it): same hash and log, another block. */
async function mineAgain(chain: AnvilChain, raw: Hex) {
  const hash = (await chain.client.request({ method: 'eth_sendRawTransaction' as never, params: [raw] as never })) as Hex;
  return chain.client.waitForTransactionReceipt({ hash });
}

const holdPolicy = (t: Awaited<ReturnType<typeof railsTenant>>) =>
  updateWrongNetworkPolicy(
    t.db,
    { tenantId: t.tenant.id, mode: 'test' },
    { kind: 'user', id: t.tenant.id, label: 'owner@test' },
    {
      wrongNetworkPolicy: 'hold',
    },
  );

describe('a reorg deeper than the confirmations under a resolved held payment', () => {
  it('a credited and swept USDC payment is kept and flagged, not deleted; seen again it is neither held nor credited twice', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '15.00' });
    const hash = await sendToken(bsc, 'USDC', inv.depositAddress, '7');
    const raw = await rawTx(bsc, hash);
    const paidIn = (await bsc.client.getTransactionReceipt({ hash })).blockNumber;
    // A second held payment nobody resolved: nothing is attached to it, so the reorg may drop it as before.
    await sendToken(bsc, 'USDC', inv.depositAddress, '2');
    await bsc.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments;
    expect(held.map((m: { amount: string; status: string }) => [m.amount, m.status])).toEqual([
      ['7.00', 'held'],
      ['2.00', 'held'],
    ]);
    const seven = held[0];
    expect((await call('POST', path(inv, seven.id, 'credit'), { key: t.test, body: {} })).status).toBe(200);
    await t.jobs();
    await t.jobs();
    expect((await balanceOf(t.test, 'USDC')).available).toBe('6.93');

    await reorgFrom(bsc, paidIn);
    await t.jobs();
    let after = (await invoiceDetail(t.test, inv.id)).heldPayments;
    // The swept and credited payment is still there, flagged; the unresolved one is gone (nothing moved on it).
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: seven.id, status: 'credited', amount: '7.00', reorgedAt: expect.any(String) });
    // The console lists it among the reorged payments.
    const flagged = await listHeldPayments(t.db, HeldPaymentFilter.parse({ status: 'reorged', tenantId: t.tenant.id }));
    expect(flagged.rows.map((r) => [r.id, r.status])).toEqual([[seven.id, 'credited']]);
    expect(flagged.rows[0]!.reorgedAt).toBeInstanceOf(Date);

    // The same transfer mined again on the new chain: the row it already has, not a new held payment.
    const again = await mineAgain(bsc, raw);
    expect(again.transactionHash).toBe(hash);
    await bsc.mine(5);
    await t.jobs();
    await t.jobs();
    after = (await invoiceDetail(t.test, inv.id)).heldPayments;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: seven.id, status: 'credited', blockNumber: Number(again.blockNumber), reorgedAt: expect.any(String) });
    for (const action of ['credit', 'refund'] as const) {
      expect((await call('POST', path(inv, seven.id, action), { key: t.test, body: {} })).status, action).toBe(409);
    }
    expect((await balanceOf(t.test, 'USDC')).available).toBe('6.93');
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
  });

  it("another network's payment counted towards the invoice and settled is kept and flagged; seen again, it cannot be counted twice", async () => {
    const t = await railsTenant(rails);
    await holdPolicy(t);
    const inv = await createInvoice(t.test, { amount: '20.00' });
    await sendFromCustomer(eth, 'USDT', inv.depositAddress, '20');
    await eth.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    const raw = await rawTx(eth, held.txHash as Hex);
    expect((await call('POST', path(inv, held.id, 'credit'), { key: t.test, body: {} })).status).toBe(200);
    for (let i = 0; i < 3; i++) await t.jobs();
    expect(await invoiceDetail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '19.80' });

    await reorgFrom(eth, BigInt(held.blockNumber));
    await t.jobs();
    expect((await invoiceDetail(t.test, inv.id)).heldPayments).toMatchObject([{ id: held.id, status: 'credited', reorgedAt: expect.any(String) }]);
    await mineAgain(eth, raw);
    await eth.mine(5);
    await t.jobs();
    await t.jobs();
    const d = await invoiceDetail(t.test, inv.id);
    expect(d.heldPayments).toMatchObject([{ id: held.id, status: 'credited' }]);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '20.00', amountCredited: '19.80' });
    expect((await call('POST', path(inv, held.id, 'credit'), { key: t.test, body: {} })).status).toBe(409);
    expect((await balanceOf(t.test)).available).toBe('19.80');
  });

  it('a payment sent back (its withdrawal created) is kept with its withdrawal; seen again, it is not refunded a second time', async () => {
    const t = await railsTenant(rails);
    await holdPolicy(t);
    const inv = await createInvoice(t.test, { amount: '20.00' });
    const customer = await sendFromCustomer(eth, 'USDT', inv.depositAddress, '8');
    await eth.mine(5);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    const hash = held.txHash as Hex;
    const raw = await rawTx(eth, hash);
    const paidIn = BigInt(held.blockNumber);
    expect((await call('POST', path(inv, held.id, 'refund'), { key: t.test, body: {} })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      await t.jobs();
      await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
      await eth.mine(5);
    }
    const refunded = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(refunded).toMatchObject({ status: 'refunded', withdrawalId: expect.stringMatching(/^wd_/) });

    await reorgFrom(eth, paidIn);
    await t.jobs();
    let after = (await invoiceDetail(t.test, inv.id)).heldPayments;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: held.id, status: 'refunded', withdrawalId: refunded.withdrawalId, reorgedAt: expect.any(String) });

    await mineAgain(eth, raw);
    await eth.mine(5);
    await t.jobs();
    await t.jobs();
    after = (await invoiceDetail(t.test, inv.id)).heldPayments;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: held.id, status: 'refunded', withdrawalId: refunded.withdrawalId });
    expect((await call('POST', path(inv, held.id, 'refund'), { key: t.test, body: {} })).status).toBe(409);
    // One withdrawal to the sender, whatever the passes do.
    await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
    const toSender = await t.db
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(and(eq(withdrawals.tenantId, t.tenant.id), eq(withdrawals.destinationAddress, EVM_ADDRESS_CODEC.parse(customer))));
    expect(toSender.map((w) => w.id)).toEqual([refunded.withdrawalId]);
  });
});
