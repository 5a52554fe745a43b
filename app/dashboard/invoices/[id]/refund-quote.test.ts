import { describe, expect, it } from 'vitest';
import type { RefundFacts } from '@/lib/refunds/price-refund';
import { approveBlocked, confirmRows, initialAmount, quoteLine, quotedAmount, reviewOrRefuse, tooSmallNotice } from './refund-quote';

/*
 * Issue 45, "the refund form proposes what the server refuses": on a TRON invoice overpaid by 3.00 the form
 * prefilled 3.00 with "the payer receives -1.00", opened the dialog for 9.00 against "At most 8.00", quoted "For 3.00"
 * whatever was typed and its dialog omitted who pays the fee. These are the form's words, computed by priceRefund on
 * the server's figures (lib/refunds/price-refund.test.ts checks that those verdicts are the API's, word for word).
 */
const TRON: RefundFacts = {
  token: 'USDT',
  network: 'TRON',
  refundable: '13',
  giveback: '3',
  heldFeeLeft: '0.03',
  networkFee: '4',
  minRefund: '5',
  givebackFeePaidBy: 'payer',
};
const PAYER = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe("the dashboard's refund form on the server's figures", () => {
  it('an overpayment too small to send back is said plainly, with what to do instead; nothing is prefilled or quoted', () => {
    expect(tooSmallNotice(TRON, '3.00')).toBe(
      'The overpayment of 3.00 USDT is too small to send back on TRON (the minimum refund on TRON is 5.00 USDT). ' +
        'You can refund at least 5.00 USDT instead (the part beyond the overpayment comes from the price, and you pay the network fee), ' +
        'or keep it and settle with the payer another way: it stays in your balance.',
    );
    expect(initialAmount(TRON, '3.00')).toBe('');
    expect(quoteLine(TRON, quotedAmount(TRON, '3.00', ''))).toBeNull();
    // Never "the payer receives -1.00": the Refund click says why instead of opening the dialog.
    expect(reviewOrRefuse(TRON, { suggested: '3.00', typed: '', chain: 'TRON', address: PAYER })).toEqual({ error: tooSmallNotice(TRON, '3.00') });
    // A large enough overpayment is prefilled, and nothing is said about it.
    expect(tooSmallNotice({ ...TRON, giveback: '12', refundable: '22' }, '12.00')).toBeNull();
    expect(initialAmount({ ...TRON, giveback: '12', refundable: '22' }, '12.00')).toBe('12.00');
  });

  it('refuses 9.00 against "at most 8.00" before the dialog, in the server\'s words', () => {
    const after = { ...TRON, refundable: '8', giveback: '0', heldFeeLeft: '0' };
    const v = reviewOrRefuse(after, { suggested: '0.00', typed: '9.00', chain: 'TRON', address: PAYER });
    expect(v).toEqual({ error: 'At most 8.00 USDT of this invoice can be refunded.' });
    // One full stop (it read "can be refunded..").
    expect(quoteLine(after, '9.00')).toEqual({ ok: false, text: 'For 9.00: At most 8.00 USDT of this invoice can be refunded.' });
    expect(reviewOrRefuse(after, { suggested: '0.00', typed: '4.99', chain: 'TRON', address: PAYER })).toEqual({
      error: 'the minimum refund on TRON is 5.00 USDT',
    });
    expect(reviewOrRefuse(after, { suggested: '0.00', typed: '', chain: 'TRON', address: PAYER })).toEqual({ error: 'Enter the amount to refund.' });
    expect('review' in reviewOrRefuse(after, { suggested: '0.00', typed: '8.00', chain: 'TRON', address: PAYER })).toBe(true);
    // The address is judged after the amount, by the network's own rule.
    expect(reviewOrRefuse(after, { suggested: '0.00', typed: '8.00', chain: 'TRON', address: `0x${'7e'.repeat(20)}` })).toMatchObject({
      error: expect.stringMatching(/^The payer's address /),
    });
  });

  it('the quote line follows the typed amount and says who pays the network fee', () => {
    const big = { ...TRON, refundable: '22', giveback: '12', heldFeeLeft: '0.12' };
    expect(quoteLine(big, quotedAmount(big, '12.00', ''))?.text).toMatch(
      /^For 12\.00: network fee 4\.00 USDT, paid by the payer \(taken from the refund\); the payer receives 8\.00;/,
    );
    expect(quoteLine(big, quotedAmount(big, '12.00', '6.00'))?.text).toMatch(/^For 6\.00: network fee 4\.00 USDT, paid by the payer/);
    // Into the price: the merchant pays the fee and the payer receives all of it.
    expect(quoteLine(big, quotedAmount(big, '12.00', '15.00'))?.text).toBe(
      'For 15.00: network fee 4.00 USDT, paid by you (from your balance); the payer receives 15.00; invoice fee returned 0.12; your balance goes down by 18.88.',
    );
  });

  it('the dialog states the amount, the fee and who pays it, what the payer receives and what leaves the balance, in cents', () => {
    const v = reviewOrRefuse(TRON, { suggested: '3.00', typed: '5.5', chain: 'TRON', address: PAYER });
    if (!('review' in v)) throw new Error(v.error);
    const rows = Object.fromEntries(confirmRows(v.review.price, 'USDT', 'TRON', v.review.destinationAddress).map((r) => [r.label, r.value]));
    expect(rows).toMatchObject({
      Amount: '5.50 USDT',
      Fee: 'network fee 4.00 USDT, paid by you (from your balance); no withdrawal fee',
      'Payer receives': '5.50 USDT',
      'Your balance': 'goes down by 9.47 USDT',
      Destination: PAYER,
    });
    for (const value of Object.values(rows)) expect(String(value)).not.toMatch(/\d\.\d{3}/);
  });

  it('Approve refund waits for the money to settle', () => {
    expect(approveBlocked({ ...TRON, refundable: '0', giveback: '0' })).toBe('available once settled');
    expect(approveBlocked(TRON)).toBeNull();
  });
});
