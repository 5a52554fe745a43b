import type { Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import { invoiceRefunds } from '@/lib/withdrawals/invoice-refunds';
import { givebackTerms } from './giveback-terms';
import type { RefundList } from './schemas';

/** GET /v1/invoices/{id}/refunds: the invoice's refunds and what it may still refund. */
export async function refundList(db: Db, invoice: Invoice): Promise<RefundList> {
  const t = await givebackTerms(db, invoice);
  return {
    invoiceId: invoice.id,
    settled: formatAmount(t.settled),
    refunded: formatAmount(t.refunded),
    refundable: formatAmount(t.refundable),
    data: await invoiceRefunds(db, invoice.id),
  };
}
