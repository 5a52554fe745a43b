import { getDashboardContext } from '@/lib/dashboard/context';
import { parseInvoiceFilters } from '@/lib/dashboard/invoice-filters';
import { invoicesCsv } from '@/lib/dashboard/invoices-csv';

/** CSV of the filtered invoice list (same URL parameters as the table), streamed. */
export async function GET(req: Request) {
  const ctx = await getDashboardContext();
  if (!ctx) return new Response('Sign in first.', { status: 401 });
  const filters = parseInvoiceFilters(Object.fromEntries(new URL(req.url).searchParams));
  const rows = invoicesCsv(ctx.db, ctx.owner, filters);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await rows.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="invoices-${ctx.mode}-${stamp}.csv"`,
      'cache-control': 'no-store',
    },
  });
}
