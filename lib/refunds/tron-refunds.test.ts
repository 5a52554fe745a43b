import { eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundRequests, withdrawals } from '@/db/schema';
import { toHex41 } from '@/lib/chain/tron/address';
import { checkSendBackSender } from '@/lib/destinations/check-sender';
import { getBalance } from '@/lib/ledger/get-balance';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { freshTronAddress, payFromNewTronWallet, usdtOf } from '@/lib/testing/tron-lane-helpers';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { proposeRefundAddress } from './requests/propose-refund-address';

let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
  await rail.node.mintUsdt(rail.node.keys.hot.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

type T = Awaited<ReturnType<typeof fundedTenant>>;
const balanceOf = async (t: T) => new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed(2);

/**
 * A TRON invoice of 20.00 paid `paid` from a payer's own wallet and settled by the jobs (watcher, sweep on delegated
 * energy), nothing written by hand: what the checkout then shows is what a payer would see.
 */
async function settledTronInvoice(paid = '20.00') {
  const t = await fundedTenant('5');
  const jobs = () => runInvoiceJobs(t.db, rail.net, { retry: { maxAttempts: 2, backoffMs: 0 }, hooks: { onWait: () => rail.node.mine(1) } });
  await jobs();
  const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '20.00', chain: 'TRON', token: 'USDT' } });
  expect(inv.status, inv.text).toBe(201);
  const payer = await payFromNewTronWallet(rail, inv.body.depositAddress, parseUnits(paid, 6));
  for (let i = 0; i < 3; i++) {
    await rail.node.mine(rail.net.confirmations + 1);
    await jobs();
  }
  const detail = await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test });
  expect(detail.body).toMatchObject({ status: 'PAID_OUT', amountReceived: paid });
  const claim = new URL(String(inv.body.checkoutUrl), 'http://x').searchParams.get('claim')!;
  return { t, invoiceId: inv.body.id as string, claim, payer };
}

/** The payer's checkout (with the claim token) and anyone's (without), as the page and its poll read them: both must answer. */
async function checkout(invoiceId: string, claim: string) {
  const mine = await call('GET', `/api/pay/${invoiceId}/status`, { headers: { 'x-claim-token': claim } });
  expect(mine.status, mine.text).toBe(200);
  const bare = await call('GET', `/api/pay/${invoiceId}/status`);
  expect(bare.status, bare.text).toBe(200);
  expect(mine.text + bare.text, 'no stored 41… form on the page').not.toMatch(/(?<![0-9a-fA-F])41[0-9a-f]{40}(?![0-9a-fA-F])/);
  return { mine: mine.body, bare: bare.body };
}

async function settleLane(t: T) {
  await processWithdrawals(t.db, rail.net);
  await rail.node.mine(19);
  await processWithdrawals(t.db, rail.net);
}

describe('refunds paid on TRON', () => {
  it('a merchant refund of a TRON invoice to a T… address arrives exactly once', async () => {
    const { t, invoiceId } = await settledTronInvoice();
    const to = freshTronAddress();
    const res = await call('POST', `/v1/invoices/${invoiceId}/refunds`, { key: t.test, body: { amount: '12.00', destinationAddress: to } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: 'TRON', destinationAddress: to, metadata: { refundOfInvoiceId: invoiceId } });
    await settleLane(t);
    await processWithdrawals(t.db, rail.net);
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
    expect(w).toMatchObject({ status: 'COMPLETED', sendAttempts: 1 });
    expect(await usdtOf(rail, to)).toBe(BigInt(new Decimal(w!.netAmount).mul(1e6).toFixed(0)));
  });

  it('refuses a refund to a blacklisted T… address (400 destination_blacklisted); nothing is debited', async () => {
    const { t, invoiceId } = await settledTronInvoice();
    const before = await balanceOf(t);
    const evil = freshTronAddress();
    await rail.node.addBlackList(evil);
    const res = await call('POST', `/v1/invoices/${invoiceId}/refunds`, { key: t.test, body: { amount: '5.00', destinationAddress: evil } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('destination_blacklisted');
    expect(await balanceOf(t)).toBe(before);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('the payer proposes a T… refund address (stored 41…, shown T…, paid to its T… form); the checkout keeps loading', async () => {
    const { t, invoiceId, claim } = await settledTronInvoice('25.00');
    const evil = freshTronAddress();
    await rail.node.addBlackList(evil);
    const refused = await proposeRefundAddress(t.db, invoiceId, { destinationAddress: evil, claimToken: claim }, { address: null }).catch((e) => e);
    expect(refused).toMatchObject({ code: 'destination_blacklisted' });
    const to = freshTronAddress();
    await proposeRefundAddress(t.db, invoiceId, { destinationAddress: to, claimToken: claim }, { address: null });
    const [req] = await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, invoiceId));
    expect(req!.destinationAddress).toBe(toHex41(to));
    // Issue 43: the checkout of the invoice answered 500 from here on (viem's getAddress on the stored 41… form).
    const proposed = await checkout(invoiceId, claim);
    expect(proposed.mine.refund).toMatchObject({ request: { status: 'PENDING', destinationAddress: to } });
    expect(proposed.bare.refund.request.destinationAddress).toBe(`${to.slice(0, 6)}…${to.slice(-4)}`);
    const approved = await call('POST', `/v1/refund-requests/${req!.id}/approve`, { key: t.test, body: {} });
    expect(approved.status, approved.text).toBe(200);
    await settleLane(t);
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.refundOfInvoiceId, invoiceId));
    // The 5.00 overpaid, less the network fee the payer pays by default.
    expect(w).toMatchObject({ status: 'COMPLETED', destinationAddress: to, amount: '5.000000000000000000', netAmount: '4.000000000000000000' });
    expect(await usdtOf(rail, to)).toBe(4_000_000n);
    // The refund sent, on both pages: to the T… address (the withdrawal keeps the wire form), masked without the token.
    const refunded = await checkout(invoiceId, claim);
    expect(refunded.mine.refund.refunds).toEqual([{ amount: '4.00', status: 'COMPLETED', txHash: w!.txHash, to }]);
    expect(refunded.bare.refund.refunds[0].to).toBe(`${to.slice(0, 6)}…${to.slice(-4)}`);
  });

  it('a held payment is sent back only to a person: a TRON contract sender is refused; a failed read is a 503', async () => {
    await expect(checkSendBackSender(rail.net, toHex41(rail.node.usdt))).rejects.toMatchObject({ code: 'sender_not_refundable' });
    await expect(checkSendBackSender(rail.net, toHex41(freshTronAddress()))).resolves.toBeUndefined();
    await expect(checkSendBackSender({ ...rail.net, rpcUrl: 'http://127.0.0.1:9' }, toHex41(freshTronAddress()))).rejects.toMatchObject({
      code: 'service_unavailable',
    });
  });
});
