import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { networkOf, type EntryRow } from './entry-sql';

const DESCRIPTIONS: Record<string, string> = {
  payment_credit: 'Payment received',
  invoice_fee: 'Invoice fee',
  withdrawal: 'Withdrawal',
  withdrawal_fee: 'Withdrawal fee',
  withdrawal_reversal: 'Failed withdrawal returned',
  network_fee: 'Network fee',
  refund: 'Refund to payer',
  exchange: 'Exchange withdrawal',
};

/** One entry as GET /v1/balance-transactions and the statement show it. */
export function balanceTransactionView(mode: Mode, r: EntryRow) {
  const net = new Decimal(r.amount);
  const credit = r.type === 'payment_credit' && r.gross !== null;
  const fiat =
    credit && r.price_currency && r.rate && !new Decimal(r.rate).isZero()
      ? { currency: r.price_currency, amount: net.div(r.rate).toFixed(2), rate: new Decimal(r.rate).toFixed() }
      : null;
  return {
    id: r.id,
    type: r.type,
    description: DESCRIPTIONS[r.type] ?? `Adjustment (${r.kind})`,
    amount: formatAmount(credit ? r.gross! : net),
    fee: formatAmount(credit ? (r.fee ?? 0) : 0),
    net: formatAmount(net),
    asset: r.currency,
    network: networkOf(mode, r),
    sourceType: r.reference_type,
    // A gas charge's later parts (`<id>:<n>`) name their pull or set-up.
    sourceId: r.reference_type.startsWith('collection_') ? r.reference_id.split(':')[0]! : r.reference_id,
    invoiceId: r.invoice_id,
    txHash: r.tx_hash,
    balanceAfter: formatAmount(r.balance_after),
    fiat,
    createdAt: new Date(r.created_at).toISOString(),
  };
}
