import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { priceRefund } from './price-refund';
import { refundFacts } from './refund-pricing';

/*
 * Issue 45: the dashboard's refund form priced a refund its own way and proposed what the server refused (an
 * overpayment of 3.00 on a network whose minimum refund is 5.00 and fee 4.00: "the payer receives -1.00"). The form
 * now runs priceRefund on refundFacts, the figures the server prices with: for every amount, the form's verdict
 * is the server's, word for word.
 */
let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  // TRON's terms (lib/config/network-costs.ts) on the test chain.
  net = c.network('test', { networkFee: '4.00', minWithdrawal: '5.00' });
  setNetworkOverride('test', net);
  await chain.mint(chain.addresses.hot, '100000');
});

const { settledInvoice } = settledInvoices(() => ({ chain, net }));

describe("the refund form's figures are the server's", () => {
  it('refuses before the dialog exactly what the API refuses, with its words, and prices what it accepts as the API charges it', async () => {
    // Overpaid by 3.00: too small to send back (the minimum refund is 5.00; the payer's 4.00 fee would leave -1.00).
    const t = await settledInvoice('10.00', '13.00', { extra: '50.00' });
    const facts = async () =>
      refundFacts(t.db, t.owner, await getInvoiceOrThrow(t.db, { id: t.invoice.id, ...t.owner }), await givebackTerms(t.db, t.invoice));
    const f = await facts();
    expect(f).toMatchObject({ refundable: '13', giveback: '3', networkFee: '4', minRefund: '5', givebackFeePaidBy: 'payer' });
    const verdict = (amount: string) => {
      try {
        const p = priceRefund(f, amount);
        return { ok: true, payerReceives: p.payerReceives.toFixed(2), paidBy: p.networkFeePaidBy };
      } catch (err) {
        return { ok: false, code: (err as ApiError).code, message: (err as ApiError).message };
      }
    };
    for (const amount of ['3.00', '4.99', '14.00', '0.001', 'abc']) {
      const form = verdict(amount);
      expect(form.ok, amount).toBe(false);
      const api = await call('POST', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test, body: { amount, destinationAddress: freshAddress() } });
      expect(api.status, api.text).toBe(400);
      expect({ ok: false, code: api.body.code, message: api.body.message }, amount).toEqual(form);
    }
    // The default (no amount) is the overpayment: refused the same way, so the form says so instead of prefilling it.
    const byDefault = await call('POST', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test, body: { destinationAddress: freshAddress() } });
    expect(byDefault.body.message).toBe(verdict('3.00').message);
    expect(verdict('3.00').message).toBe('amount: the minimum refund on Anvil is 5.00 USDT'.replace('Anvil', f.network));

    // 5.00 reaches into the price: the merchant pays the network fee, the payer receives all of it.
    expect(verdict('5.00')).toEqual({ ok: true, payerReceives: '5.00', paidBy: 'merchant' });
    const ok = await call('POST', `/v1/invoices/${t.invoice.id}/refunds`, {
      key: t.test,
      body: { amount: '5.00', destinationAddress: freshAddress() },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ amount: '5.00', netAmount: '5.00', feeAmount: '4.00' });
    // The next figures know of it: at most 8.00 is left.
    expect((await facts()).refundable).toBe('8');
  });
});
