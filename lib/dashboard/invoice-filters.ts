import { z } from 'zod';
import { InvoiceStatusSchema } from '@/lib/invoices/schemas';

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');

/** The invoice table's URL state (?status=&from=&to=&q=&page=). Junk values are dropped, not errors. */
export const InvoiceFilters = z.object({
  status: InvoiceStatusSchema.optional().catch(undefined),
  from: Day.optional().catch(undefined),
  to: Day.optional().catch(undefined),
  q: z.string().trim().max(255).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type InvoiceFilters = z.infer<typeof InvoiceFilters>;

export function parseInvoiceFilters(sp: Record<string, string | string[] | undefined>): InvoiceFilters {
  const one = (k: string) => (Array.isArray(sp[k]) ? sp[k]![0] : sp[k]) || undefined;
  return InvoiceFilters.parse({ status: one('status'), from: one('from'), to: one('to'), q: one('q'), page: one('page') });
}
