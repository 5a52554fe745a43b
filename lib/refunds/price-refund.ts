import { ApiError } from '@/lib/api/errors';
import { chargedFee, Decimal, formatAmount } from '@/lib/money';
import { parseWithdrawalAmount } from '@/lib/withdrawals/amounts';
import { MIN_WITHDRAWAL } from '@/lib/withdrawals/schemas';

/**
 * What pricing a refund of one invoice needs to know, as strings (read by refundFacts in refund-pricing.ts on the
 * server, passed as they are to the dashboard's refund forms): the server and the forms run priceRefund on the
 * same figures, so a form never proposes what the server refuses (issue 45).
 */
export interface RefundFacts {
  token: string;
  /** The network's name ("TRON", "BNB Smart Chain"), as the server's messages say it. */
  network: string;
  /** At most this may be refunded (givebackTerms.refundable, exact). */
  refundable: string;
  /** The part the merchant never kept (givebackTerms.giveback, exact). */
  giveback: string;
  /** The invoice fee held for the giveback and not yet returned. */
  heldFeeLeft: string;
  networkFee: string;
  minRefund: string;
  /** Who pays the network fee of a refund of the giveback only (the tenant's setting); beyond it the merchant pays. */
  givebackFeePaidBy: 'payer' | 'merchant';
}

/**
 * Prices a refund of `raw` (issue 30 §2; docs/invoices.md, Refunds) and refuses what the server refuses, with the
 * server's words: not an amount, more than refundable, below the network's minimum refund, or a network fee that
 * leaves the payer nothing. The giveback is refunded first at no cost to the merchant (its invoice fee comes back,
 * the network fee is the tenant's choice); refunding into the price costs the merchant the network fee.
 */
export function priceRefund(f: RefundFacts, raw: string) {
  const amount = parseWithdrawalAmount(raw);
  const refundable = new Decimal(f.refundable);
  if (amount.gt(refundable)) {
    throw new ApiError('refund_exceeds_received', `At most ${formatAmount(refundable)} ${f.token} of this invoice can be refunded.`, [
      { path: 'amount', message: `more than the refundable ${formatAmount(refundable)}` },
    ]);
  }
  const min = new Decimal(f.minRefund);
  if (amount.lt(min)) {
    throw new ApiError('amount_below_minimum', `amount: the minimum refund on ${f.network} is ${min.toFixed(2)} ${f.token}`, [
      { path: 'amount', message: `must be at least ${min.toFixed(2)}` },
    ]);
  }
  const p = refundCosts(f, amount);
  if (p.payerReceives.lt(MIN_WITHDRAWAL)) {
    throw new ApiError(
      'amount_below_minimum',
      `amount: ${formatAmount(amount)} ${f.token} does not cover the network fee on ${f.network} (${formatAmount(p.networkFee)} ${f.token})`,
      [{ path: 'amount', message: `must be more than the network fee ${formatAmount(p.networkFee)}` }],
    );
  }
  return p;
}

/** What a refund of `amount` costs whom, unchecked (priceRefund checks it; a claim page prices a promise made earlier). */
export function refundCosts(f: RefundFacts, amount: Decimal) {
  const total = new Decimal(f.giveback);
  const giveback = Decimal.min(amount, total);
  const price = amount.minus(giveback);
  const heldLeft = new Decimal(f.heldFeeLeft);
  // Its share of the held invoice fee: all of it when this refund gives back all that may be given back.
  const feeBack =
    giveback.isZero() || total.isZero()
      ? new Decimal(0)
      : giveback.gte(total)
        ? heldLeft
        : // In cents like every fee (chargedFee), never more than is held: the last refund returns the rest.
          Decimal.min(heldLeft, chargedFee(heldLeft.times(giveback).div(total)));
  const networkFeePaidBy: 'payer' | 'merchant' = price.gt(0) ? 'merchant' : f.givebackFeePaidBy;
  const networkFee = new Decimal(f.networkFee);
  const payerReceives = networkFeePaidBy === 'payer' ? amount.minus(networkFee) : amount;
  return {
    amount,
    giveback,
    price,
    networkFee,
    networkFeePaidBy,
    payerReceives,
    invoiceFeeReturned: feeBack,
    balanceDebit: amount.plus(networkFeePaidBy === 'payer' ? 0 : networkFee).minus(feeBack),
  } as const;
}

export type RefundPrice = ReturnType<typeof refundCosts>;
