import { ApiError } from '@/lib/api/errors';
import { getDashboardContext } from '@/lib/dashboard/context';
import { invoiceWatch } from '@/lib/dashboard/invoice-watch';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';

/** Session-authenticated status poll for the invoice detail page (tenant and mode from the session): the invoice's and its refunds' statuses. */
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const ctx = await getDashboardContext();
  if (!ctx) return Response.json({ message: 'Sign in first.' }, { status: 401 });
  try {
    const row = await getInvoiceOrThrow(ctx.db, { id: (await params).id, tenantId: ctx.tenant.id, mode: ctx.mode });
    return Response.json(await invoiceWatch(ctx.db, row), { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    if (err instanceof ApiError) return Response.json({ message: err.message }, { status: err.status });
    throw err;
  }
}
