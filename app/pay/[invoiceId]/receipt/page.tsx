import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db';
import { getReceipt } from '@/lib/checkout/get-receipt';
import { PrintButton } from '@/components/checkout/print-button';
import { TxLink } from '@/components/ui/tx-link';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Receipt', robots: { index: false } };

/** The payer's receipt: printable (or saved as PDF from the print dialog); 404 until the payment is confirmed. */
export default async function ReceiptPage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const r = await getReceipt(await getDb(), invoiceId);
  if (!r) notFound();
  const row = (label: string, value: React.ReactNode) => (
    <div className="flex justify-between gap-4 border-b border-slate-100 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
  return (
    <main className="mx-auto min-h-screen w-full max-w-md px-4 py-6 sm:py-12" data-testid="receipt">
      {r.mode === 'test' ? (
        <div className="mb-4 rounded-md bg-amber-100 px-3 py-1.5 text-center text-xs font-semibold uppercase tracking-wide text-amber-900">
          Test mode: no real funds
        </div>
      ) : null}
      <h1 className="text-lg font-semibold">Receipt</h1>
      <p className="text-sm text-slate-500">Payment to {r.tenantName}</p>
      <dl className="mt-4">
        {row(
          'Amount paid',
          <span className="tabular-nums" data-testid="receipt-amount">
            {r.amountPaid} {r.token}
          </span>,
        )}
        {r.amountPaid !== r.amountExpected ? row('Amount requested', `${r.amountExpected} ${r.token}`) : null}
        {r.price ? row('Price', `${r.price.amount} ${r.price.currency}`) : null}
        {row('Network', r.network)}
        {row('Paid', new Date(r.paidAt).toUTCString())}
        {row('Invoice', <span className="font-mono text-xs">{r.id}</span>)}
        {row(
          r.payments.length === 1 ? 'Transaction' : 'Transactions',
          <span className="flex flex-col items-end gap-1">
            {r.payments.map((p) => (
              <span key={p.txHash} className="flex items-center gap-2">
                {r.payments.length > 1 ? <span className="text-xs tabular-nums text-slate-500">{p.amount}</span> : null}
                <TxLink chainId={p.chainId} hash={p.txHash} />
              </span>
            ))}
          </span>,
        )}
      </dl>
      <div className="mt-6 flex gap-2 print:hidden">
        <PrintButton />
        {r.returnUrl ? (
          <a href={r.returnUrl} className="flex-1 rounded-md bg-slate-900 px-4 py-2 text-center text-sm font-medium text-white">
            Back to {r.tenantName}
          </a>
        ) : null}
      </div>
    </main>
  );
}
