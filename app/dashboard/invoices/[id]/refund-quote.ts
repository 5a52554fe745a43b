import { formatMoney } from '@/components/ui/money';
import { ApiError } from '@/lib/api/errors';
import { addressProblem } from '@/lib/chain/address-rules';
import { networkLabel } from '@/lib/checkout/network-label';
import type { ChainKey } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import { priceRefund, type RefundFacts, type RefundPrice } from '@/lib/refunds/price-refund';

/*
 * What the dashboard's refund forms say, as pure functions of the figures the server prices refunds with
 * (refundFacts → priceRefund; issue 45): the quote line, the refusal before the dialog, the dialog's rows, the
 * notice when an overpayment is too small to send back, and whether a request can be approved yet.
 * refund-quote.test.ts checks them on TRON's terms.
 */

/** A verdict of priceRefund on the typed amount: its price, or the server's refusal in its words. */
export function refundVerdict(facts: RefundFacts, amount: string): { ok: true; price: RefundPrice } | { ok: false; message: string } {
  try {
    return { ok: true, price: priceRefund(facts, amount) };
  } catch (err) {
    return { ok: false, message: err instanceof ApiError ? err.message.replace(/^amount: /, '') : String(err) };
  }
}

/** Who pays the network fee, said plainly (the quote line and the dialog). */
export function feeWords(p: RefundPrice, token: string) {
  const fee = `${formatMoney(p.networkFee.toFixed(2))} ${token}`;
  return p.networkFee.isZero()
    ? 'none'
    : p.networkFeePaidBy === 'payer'
      ? `${fee}, paid by the payer (taken from the refund)`
      : `${fee}, paid by you (from your balance)`;
}

/**
 * The overpayment cannot be sent back on this network (below its minimum refund, or its network fee would take all
 * of it): what the merchant can do instead, with the smallest refund the server accepts when there is one.
 */
export function tooSmallNotice(facts: RefundFacts, suggested: string): string | null {
  const v = refundVerdict(facts, suggested);
  if (v.ok || new Decimal(suggested).isZero()) return null;
  const candidates = [facts.minRefund, new Decimal(suggested).plus('0.01').toFixed(2)].map((a) => new Decimal(a).toFixed(2));
  const instead = candidates.find((a) => refundVerdict(facts, a).ok);
  return (
    `The overpayment of ${formatMoney(new Decimal(suggested).toFixed(2))} ${facts.token} is too small to send back on ${facts.network} (${v.message}). ` +
    (instead
      ? `You can refund at least ${formatMoney(instead)} ${facts.token} instead (the part beyond the overpayment comes from the price, and you pay the network fee), `
      : 'You can ') +
    'or keep it and settle with the payer another way: it stays in your balance.'
  );
}

/** The amount the form starts with: the API's default when the server would accept it, else empty. */
export function initialAmount(facts: RefundFacts, suggested: string): string {
  return new Decimal(suggested).isZero() || tooSmallNotice(facts, suggested) ? '' : suggested;
}

/** The amount quoted: the typed one, else the API's default when it would be accepted; '' quotes nothing. */
export function quotedAmount(facts: RefundFacts, suggested: string, typed: string): string {
  return typed.trim() || initialAmount(facts, suggested);
}

/** The line under the amount, following the typed amount (null under an empty field with nothing to suggest). */
export function quoteLine(facts: RefundFacts, amount: string): { ok: boolean; text: string } | null {
  if (!amount) return null;
  const v = refundVerdict(facts, amount);
  if (!v.ok) return { ok: false, text: `For ${amount}: ${v.message.replace(/\.$/, '')}.` };
  const p = v.price;
  return {
    ok: true,
    text:
      `For ${formatMoney(p.amount.toFixed(2))}: network fee ${feeWords(p, facts.token)}; the payer receives ${formatMoney(p.payerReceives.toFixed(2))}; ` +
      `invoice fee returned ${formatMoney(p.invoiceFeeReturned.toFixed(2))}; your balance goes down by ${formatMoney(p.balanceDebit.toFixed(2))}.`,
  };
}

/**
 * The Refund button's click: the server's refusal in its words before any dialog opens (it checks again), or the
 * review the dialog shows.
 */
export function reviewOrRefuse(
  facts: RefundFacts,
  input: { suggested: string; typed: string; chain: ChainKey; address?: string },
): { error: string } | { review: { amount: string; price: RefundPrice; destinationAddress: string } } {
  const amount = quotedAmount(facts, input.suggested, input.typed);
  if (!amount) return { error: tooSmallNotice(facts, input.suggested) ?? 'Enter the amount to refund.' };
  const v = refundVerdict(facts, amount);
  if (!v.ok) return { error: v.message };
  const destinationAddress = (input.address ?? '').trim();
  if (input.address !== undefined) {
    const problem = addressProblem(input.chain, destinationAddress);
    if (problem) return { error: `The payer's address ${problem}` };
  }
  return { review: { amount: v.price.amount.toFixed(2), price: v.price, destinationAddress } };
}

/** The confirm dialog's rows: the amount, the fee and who pays it, what the payer receives, what leaves the balance. */
export function confirmRows(p: RefundPrice, token: string, chain: ChainKey, destinationAddress: string) {
  return [
    { label: 'Amount', value: `${formatMoney(p.amount.toFixed(2))} ${token}` },
    { label: 'Fee', value: `network fee ${feeWords(p, token)}; no withdrawal fee` },
    { label: 'Payer receives', value: `${formatMoney(p.payerReceives.toFixed(2))} ${token}` },
    { label: 'Your balance', value: `goes down by ${formatMoney(p.balanceDebit.toFixed(2))} ${token}` },
    { label: 'Asset', value: token },
    { label: 'Network', value: networkLabel(chain) },
    { label: 'Destination', value: destinationAddress, mono: true },
  ];
}

/** Approve refund is offered only once something is settled ("Settled 0.00 · refundable 0.00" approved 0.00). */
export function approveBlocked(facts: RefundFacts): string | null {
  return new Decimal(facts.refundable).lt('0.01') ? 'available once settled' : null;
}
