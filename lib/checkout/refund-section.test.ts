import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { CheckoutLive } from '@/components/checkout/checkout-live';
import { call } from '@/lib/testing/app';
import { claimOf } from '@/lib/testing/refund-hijack';
import { createInvoice, railsTenant, withTwoRails, type TwoRails } from '@/lib/testing/two-rails';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';

/*
 * Issue 30 §7: the checkout's refund section names the invoice's own token and network (an Ethereum USDC invoice
 * read "USDT … on BNB Smart Chain (BEP-20)"), and issue 30 §1: only the page with the payer's claim token shows the
 * refund form and full addresses; the bare page shows the payment and masks them.
 */
let rails: TwoRails;
withTwoRails((r) => {
  rails = r;
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const page = (state: unknown, claim?: string) => renderToStaticMarkup(createElement(CheckoutLive, { initial: state as never, claim }));

describe('checkout refund section on a non-BSC rail', () => {
  it('an overpaid Ethereum USDC invoice: the payer page asks for a USDC address on Ethereum; the bare page has no form and masks addresses', async () => {
    const t = await railsTenant(rails);
    const inv = await createInvoice(t.test, { amount: '10.00', chain: 'ETHEREUM', token: 'USDC' });
    const claim = claimOf(inv.checkoutUrl)!;
    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '12' } });
    expect(paid.status, paid.text).toBe(200);
    await rails.eth.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await t.jobs();

    const payer = (await call('GET', `/api/pay/${inv.id}/status`, { headers: { 'x-claim-token': claim } })).body;
    expect(payer).toMatchObject({ claimed: true, token: 'USDC', network: 'Ethereum (ERC-20)', refund: { claimable: '2.00', canPropose: true } });
    const html = page(payer, claim);
    const words = text(html);
    expect(words).toContain('2.00 USDC of your payment can be returned to you');
    expect(words).toContain('Your USDC address on Ethereum (ERC-20)');
    expect(words).not.toMatch(/USDT|BNB|BEP-20/);
    // The form posts the token (hidden field) for the server action to check.
    expect(html).toContain(`name="claim" value="${claim}"`);

    // The payer gives an address: their page shows it in full; the bare page (anyone with the id) masked, without a form.
    const to = freshAddress();
    await proposeRefundAddress(t.db, inv.id, { destinationAddress: to, claimToken: claim }, { address: null });
    const mine = (await call('GET', `/api/pay/${inv.id}/status`, { headers: { 'x-claim-token': claim } })).body;
    expect(text(page(mine, claim))).toContain(mine.refund.request.destinationAddress);
    for (const wrong of [undefined, 'A'.repeat(43)]) {
      const bare = (await call('GET', `/api/pay/${inv.id}/status`, { headers: wrong ? { 'x-claim-token': wrong } : {} })).body;
      expect(bare).toMatchObject({ claimed: false, refund: { canPropose: false, request: { status: 'PENDING' } } });
      const masked = `${mine.refund.request.destinationAddress.slice(0, 6)}…${mine.refund.request.destinationAddress.slice(-4)}`;
      expect(bare.refund.request.destinationAddress).toBe(masked);
      const h = page(bare);
      expect(h).not.toContain('name="address"');
      expect(h).not.toContain(mine.refund.request.destinationAddress);
      expect(text(h)).toContain(masked);
    }
  });
});
