import { and, desc, eq, sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { auditLog, ledgerEntries } from '@/db/schema';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { getCheckout } from '@/lib/checkout/get-checkout';
import { rowsOf } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { updateRefundNetworkFeePayer } from '@/lib/tenants/update-refund-network-fee-payer';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { failWithdrawal } from '@/lib/withdrawals/finish-withdrawal';

/*
 * Issue 30 §2: passing money back costs the merchant nothing. The invoice fee charged on what is given
 * back returns with it (and waited in the hot wallet for that), no percentage withdrawal fee is taken, and
 * the network fee is the payer's by default (taken from what they get back) or the merchant's if it says so.
 */
let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  // A network with a flat fee, as every network but BSC has by default.
  net = c.network('test', { networkFee: '0.50', minWithdrawal: '1.00' });
  setNetworkOverride('test', net);
  await chain.mint(chain.addresses.hot, '100000');
});

const { settledInvoice, balance, onChain, send } = settledInvoices(() => ({ chain, net }));
const refund = (key: string, id: string, body: Record<string, unknown>) => call('POST', `/v1/invoices/${id}/refunds`, { key, body });
const OWNER = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };

describe('what giving money back costs', () => {
  it("an overpayment's fee waits in the hot wallet: the fee wallet gets the fee on the price only", async () => {
    const [hot, fee] = [await chain.tokenBalance(chain.addresses.hot), await chain.tokenBalance(chain.addresses.fee)];
    const t = await settledInvoice('20.00', '25.00');
    expect(t.invoice).toMatchObject({ status: 'PAID_OUT', amountCredited: '24.75', feeAmount: '0.25' });
    expect((await chain.tokenBalance(chain.addresses.fee)) - fee).toBe(parseUnits('0.20', 18));
    expect((await chain.tokenBalance(chain.addresses.hot)) - hot).toBe(parseUnits('24.80', 18));
  });

  it('the network fee is taken from what the payer gets back by default; the merchant ends as if paid the price', async () => {
    const t = await settledInvoice('20.00', '25.00');
    // The payer's checkout shows the fee and what they get before they give an address.
    expect((await getCheckout(t.db, t.invoice.id))!.refund).toMatchObject({
      claimable: '5.00',
      networkFee: '0.50',
      networkFeePaidBy: 'payer',
      youReceive: '4.50',
    });
    const to = freshAddress();
    const r = await refund(t.test, t.invoice.id, { destinationAddress: to });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ amount: '5.00', feeAmount: '0.50', netAmount: '4.50' });
    // 24.75 − 5.00 + 0.05 (the invoice fee on the 5.00) = 19.80 = 20.00 at 1 %.
    expect(await balance(t)).toBe('19.8');
    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, r.body.id));
    expect(Object.fromEntries(entries.map((e) => [e.kind, new Decimal(e.amount).toFixed(2)]))).toEqual({
      invoice_fee_refund: '0.05',
      withdrawal: '-4.50',
      network_fee: '-0.50',
    });
    await send();
    expect(await onChain(to)).toBe('4.5');
    expect((await getCheckout(t.db, t.invoice.id))!.refund!.refunds).toMatchObject([{ amount: '4.50', status: 'COMPLETED' }]);
  });

  it('when the merchant pays refunds’ network fee, the payer gets the whole excess and the balance pays the fee', async () => {
    const t = await settledInvoice('20.00', '25.00');
    await updateRefundNetworkFeePayer(t.db, t.owner, OWNER, { refundNetworkFeePayer: 'merchant' });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.refundNetworkFeePayer).toBe('merchant');
    // Also through the API (a live admin key, as the other account settings), audited like the dashboard's change.
    const api = await call('PATCH', '/v1/tenants/me', { key: t.live, body: { refundNetworkFeePayer: 'payer' } });
    expect(api.status, api.text).toBe(200);
    expect(api.body.refundNetworkFeePayer).toBe('payer');
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, t.tenant.id), eq(auditLog.action, 'tenant.refund_network_fee_payer_changed')))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(audit).toMatchObject({ before: { refundNetworkFeePayer: 'merchant' }, after: { refundNetworkFeePayer: 'payer' } });
    await updateRefundNetworkFeePayer(t.db, t.owner, OWNER, { refundNetworkFeePayer: 'merchant' });
    expect((await getCheckout(t.db, t.invoice.id))!.refund).toMatchObject({ networkFeePaidBy: 'merchant', youReceive: '5.00' });
    const to = freshAddress();
    const r = await refund(t.test, t.invoice.id, { destinationAddress: to });
    expect(r.body).toMatchObject({ amount: '5.00', feeAmount: '0.50', netAmount: '5.00' });
    expect(await balance(t)).toBe('19.3');
    await send();
    expect(await onChain(to)).toBe('5');
  });

  it('a refund smaller than the network minimum, or than its own network fee, is refused naming the network', async () => {
    const t = await settledInvoice('20.00', '20.80');
    const small = await refund(t.test, t.invoice.id, { destinationAddress: freshAddress() });
    expect(small.status, small.text).toBe(400);
    expect(small.body).toMatchObject({ code: 'amount_below_minimum' });
    expect(small.body.message).toContain('the minimum refund on BNB Smart Chain is 1.00 USDT');
  });

  it('a refund that fails gives back exactly what it took, the returned invoice fee included; made again, it returns it once', async () => {
    const t = await settledInvoice('20.00', '25.00');
    const before = await balance(t);
    const r = await refund(t.test, t.invoice.id, { destinationAddress: freshAddress() });
    expect(await balance(t)).toBe('19.8');
    await failWithdrawal(t.db, r.body.id, 'test: the transfer reverted');
    expect(await balance(t)).toBe(before);
    const again = await refund(t.test, t.invoice.id, { destinationAddress: freshAddress() });
    expect(again.status, again.text).toBe(201);
    expect(await balance(t)).toBe('19.8');
    const [sum] = rowsOf<{ sum: string }>(
      await t.db.execute(sql`select coalesce(sum(amount), 0)::text as sum from ledger_entries where tenant_id = ${t.tenant.id} and mode = 'test'`),
    );
    expect(new Decimal(sum!.sum).eq(await balance(t))).toBe(true);
  });
});
