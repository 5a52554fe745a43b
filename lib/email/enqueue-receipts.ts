import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { invoices, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import { enqueueEmail } from './enqueue-email';

/**
 * The invoice-event hook of receipts (registered in lib/payment-hooks.ts): each confirmed invoice that has a customer
 * e-mail gets a receipt in the e-mail outbox, in the transaction that confirmed it, so a receipt is never sent for a
 * payment that rolled back and never lost for one that committed. Once per invoice (the outbox's kind + subject).
 */
export async function enqueueReceipts(tx: Db, items: { invoiceId: string; type: string }[]): Promise<void> {
  const ids = items.filter((i) => i.type === 'invoice.confirmed').map((i) => i.invoiceId);
  if (!ids.length) return;
  const rows = await tx
    .select({ invoice: invoices, merchantName: tenants.name })
    .from(invoices)
    .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
    .where(and(inArray(invoices.id, ids), isNotNull(invoices.customerEmail)));
  for (const { invoice: inv, merchantName } of rows) {
    await enqueueEmail(tx, {
      tenantId: inv.tenantId,
      mode: inv.mode,
      kind: 'receipt',
      subjectId: inv.id,
      to: inv.customerEmail!,
      data: {
        merchantName,
        invoiceId: inv.id,
        amount: formatAmount(inv.amountExpected),
        amountReceived: formatAmount(inv.amountReceived),
        token: inv.token,
        chain: inv.chain,
        ...(inv.description ? { description: inv.description } : {}),
      },
    });
  }
}
