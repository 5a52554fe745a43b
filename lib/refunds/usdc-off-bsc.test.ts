import { and, eq } from 'drizzle-orm';
import { getAddress, parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { getCheckout } from '@/lib/checkout/get-checkout';
import { redeemRefundClaim } from '@/lib/refunds/claims/redeem-refund-claim';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress } from '@/lib/testing/settled-invoice';
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
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Issue 31: refunds, payer claims and sends-back off the default rail. An Ethereum USDC invoice (6 decimals)
 * beside BSC's USDT and USDC (18): each path pays on Ethereum in the token it concerns, debits that token's
 * balance, and never touches BSC.
 */
let rails: TwoRails;
let eth: AnvilChain;
withTwoRails((r) => {
  rails = r;
  eth = r.eth;
  setNetworkOverride('test', r.ethNet, 'ETHEREUM');
});

const LIMITS = { perAddressPerMinute: 1000, perInvoice: 5 };
let ip = 0;
const client = () => ({ address: `203.0.113.${++ip % 250}:${process.pid}` });
const claimOf = (checkoutUrl: string) => new URL(checkoutUrl, 'http://x').searchParams.get('claim')!;

/** An Ethereum USDC invoice priced 5.00, paid `paid` USDC, settled. */
async function paidUsdcOnEthereum(paid: string) {
  const t = await railsTenant(rails);
  const inv = await createInvoice(t.test, { amount: '5.00', chain: 'ETHEREUM', token: 'USDC' });
  expect(inv).toMatchObject({ chain: 'ETHEREUM', token: 'USDC' });
  await sendToken(eth, 'USDC', inv.depositAddress, paid);
  for (let i = 0; i < 3 && (await invoiceDetail(t.test, inv.id)).status !== 'PAID_OUT'; i++) {
    await eth.mine(13);
    await t.jobs();
  }
  expect(await invoiceDetail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountReceived: new Decimal(paid).toFixed(2) });
  return { t, inv };
}

/** Runs Ethereum's sending lane until the withdrawal completes. */
async function complete(db: Db, key: string, id: string) {
  for (let i = 0; i < 5 && (await call('GET', `/v1/withdrawals/${id}`, { key })).body.status !== 'COMPLETED'; i++) {
    await processWithdrawals(db, rails.ethNet as LaneNetwork);
    await eth.mine(13);
  }
  const w = await call('GET', `/v1/withdrawals/${id}`, { key });
  expect(w.body.status, JSON.stringify(w.body)).toBe('COMPLETED');
  return w.body;
}

const usdcOnEth = (a: string) => eth.tokenBalance(EVM_ADDRESS_CODEC.parse(a), eth.tokenOf('USDC'));

describe('off the default rail: an Ethereum USDC invoice', () => {
  it("the payer's claim (checkout token) is refunded in USDC on Ethereum, and the checkout names that token and network", async () => {
    const { t, inv } = await paidUsdcOnEthereum('8');
    const view = await getCheckout(t.db, inv.id);
    expect(view).toMatchObject({ token: 'USDC', network: 'Ethereum (ERC-20)' });
    expect(view!.refund).toMatchObject({ claimable: '3.00' });

    const payer = freshAddress();
    const { request: req } = await proposeRefundAddress(
      t.db,
      inv.id,
      { destinationAddress: payer, claimToken: claimOf(inv.checkoutUrl) },
      client(),
      LIMITS,
    );
    expect(req.status).toBe('PENDING');
    expect(new Decimal(req.amount).toFixed(2)).toBe('3.00');
    const usdcBefore = (await balanceOf(t.test, 'USDC')).available;
    const ok = await call('POST', `/v1/refund-requests/${req.id}/approve`, { key: t.test, body: {} });
    expect(ok.status, ok.text).toBe(200);
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, ok.body.withdrawalId));
    expect(w).toMatchObject({ chain: 'ETHEREUM', token: 'USDC' });
    const done = await complete(t.db, t.test, w!.id);
    expect(await usdcOnEth(payer)).toBe(parseUnits(done.netAmount, 6));
    // Debited from USDC, never from USDT: the balance keeps what a payment of the price alone leaves (5.00 less 1 %),
    // the excess having cost the merchant nothing (its invoice fee came back with it).
    expect(usdcBefore).toBe('7.92');
    expect((await balanceOf(t.test, 'USDC')).available).toBe('4.95');
    expect((await balanceOf(t.test, 'USDT')).available).toBe('0.00');
    for (const s of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(s.ledger).eq(s.balance), s.currency).toBe(true);
  });

  it("a merchant's claim link on it pays the payer's address in USDC on Ethereum", async () => {
    const { t, inv } = await paidUsdcOnEthereum('5');
    const made = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: inv.id, amount: '2.00' } });
    expect(made.status, made.text).toBe(201);
    const payer = freshAddress();
    const token = made.body.url.split('/refund-claim/')[1]!;
    const used = await redeemRefundClaim(t.db, token, { destinationAddress: payer }, client(), LIMITS);
    const ok = await call('POST', `/v1/refund-requests/${used!.request.id}/approve`, { key: t.test, body: {} });
    expect(ok.status, ok.text).toBe(200);
    const done = await complete(t.db, t.test, ok.body.withdrawalId);
    expect(done).toMatchObject({ chain: 'ETHEREUM', token: 'USDC', amount: '2.00' });
    expect(await usdcOnEth(payer)).toBe(parseUnits(done.netAmount, 6));
  });

  it('USDT sent to it on Ethereum is held, and sent back to its sender in USDT on Ethereum', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '5.00', chain: 'ETHEREUM', token: 'USDC' });
    const customer = await sendFromCustomer(eth, 'USDT', inv.depositAddress, '8');
    await eth.mine(13);
    await t.jobs();
    const held = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(held).toMatchObject({ chain: 'ETHEREUM', token: 'USDT', mismatch: 'token', status: 'held' });
    const before = await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(customer), eth.tokenOf('USDT'));
    const res = await call('POST', `/v1/invoices/${inv.id}/held-payments/${held.id}/refund`, { key: t.test, body: {} });
    expect(res.status, res.text).toBe(200);
    for (let i = 0; i < 5 && (await invoiceDetail(t.test, inv.id)).heldPayments[0].status !== 'refunded'; i++) {
      await eth.mine(13);
      await t.jobs();
      await processWithdrawals(t.db, rails.ethNet as LaneNetwork);
    }
    const after = (await invoiceDetail(t.test, inv.id)).heldPayments[0];
    expect(after.status).toBe('refunded');
    const [w] = await t.db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, after.withdrawalId), eq(withdrawals.tenantId, t.tenant.id)));
    expect(w).toMatchObject({ chain: 'ETHEREUM', token: 'USDT' });
    expect(getAddress(w!.destinationAddress)).toBe(getAddress(customer));
    const back = (await eth.tokenBalance(EVM_ADDRESS_CODEC.parse(customer), eth.tokenOf('USDT'))) - before;
    expect(back).toBe(parseUnits(new Decimal(w!.amount).minus(w!.feeAmount).toFixed(), 6));
    expect(back > 0n).toBe(true);
    for (const s of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(s.ledger).eq(s.balance), s.currency).toBe(true);
  });
});
