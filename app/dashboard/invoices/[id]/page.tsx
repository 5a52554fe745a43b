import Link from 'next/link';
import { notFound } from 'next/navigation';
import { StatusBadge } from '@/components/ui/badge';
import { OverpaidBadge } from '@/components/dashboard/overpaid-badge';
import { Card, EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Money } from '@/components/ui/money';
import { railLabel } from '@/lib/checkout/network-label';
import { Time } from '@/components/ui/time';
import { TxLink } from '@/components/ui/tx-link';
import { ApiError } from '@/lib/api/errors';
import { getNetwork, getNetworks, getRail } from '@/lib/chain/network';
import { requireContext } from '@/lib/dashboard/context';
import { listEventDeliveries } from '@/lib/dashboard/event-deliveries';
import { paymentQrSvg } from '@/lib/dashboard/payment-qr';
import { Decimal } from '@/lib/money';
import { can } from '@/lib/dashboard/permissions';
import { getInvoice } from '@/lib/invoices/get-invoice';
import { isId } from '@/lib/ids';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { listRefundClaims } from '@/lib/refunds/claims/list-refund-claims';
import { listRefundRequests } from '@/lib/refunds/requests/list-refund-requests';
import { paymentSenders } from '@/lib/refunds/requests/payment-senders';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { refundList } from '@/lib/refunds/refund-list';
import { refundFacts } from '@/lib/refunds/refund-pricing';
import { invoiceWatch } from '@/lib/dashboard/invoice-watch';
import { CHAIN_GONE_TEXT, chainGone } from '@/lib/invoices/chain-gone';
import { InvoiceWatcher, SimulatePayment } from './live';
import { HeldPayments } from './held-payments';
import { RefundForm } from './refund-form';
import { RefundClaims } from './refund-claims';
import { RefundRequests } from './refund-requests';

export const metadata = { title: 'Invoice' };

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireContext();
  const { id } = await params;
  if (!isId('invoice', id)) notFound();
  let invoice: Awaited<ReturnType<typeof getInvoice>>;
  try {
    // Tenant and mode come from the session: another tenant's invoice is simply not found.
    invoice = await getInvoice(ctx.db, { id, tenantId: ctx.tenant.id, mode: ctx.mode });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') notFound();
    throw err;
  }
  // The invoice's rail (its QR asks for its token on its network); a payment credited from another network links there.
  const network = getRail(ctx.mode, invoice.chain, invoice.token) ?? getNetwork(ctx.mode, invoice.chain);
  const chainIdOf = (c: string) => getNetworks(ctx.mode).find((n) => n.chain === c)?.chainId ?? network.chainId;
  const row = await getInvoiceOrThrow(ctx.db, { id, ...ctx.owner });
  // Made on a local chain of an earlier `npm run dev`: nothing watches it, nothing can pay it.
  const gone = chainGone(row);
  const [refunds, terms, requests, senders, claims] = await Promise.all([
    refundList(ctx.db, row),
    givebackTerms(ctx.db, row),
    listRefundRequests(ctx.db, ctx.owner, { invoiceId: id, page: 1, limit: 20 }),
    paymentSenders(ctx.db, row.id),
    listRefundClaims(ctx.db, ctx.owner, { invoiceId: id, page: 1, limit: 20 }),
  ]);
  // A request made with a claim link is approved for the link's amount by default.
  const claimAmounts = Object.fromEntries(claims.data.flatMap((c) => (c.refundRequestId ? [[c.refundRequestId, c.amount]] : [])));
  const suggested = terms.byDefault.toFixed(2);
  // The figures the server prices refunds with: the forms price and refuse as it does, before the owner confirms.
  const [facts, watch] = await Promise.all([refundFacts(ctx.db, ctx.owner, row, terms), invoiceWatch(ctx.db, row)]);
  const [qr, deliveries] = await Promise.all([
    // A partially paid invoice's QR asks for what is left, as the checkout's does.
    paymentQrSvg(
      invoice.depositAddress,
      invoice.status === 'PARTIALLY_PAID' ? new Decimal(invoice.amountExpected).minus(invoice.amountReceived).toFixed() : invoice.amountExpected,
      network,
    ),
    listEventDeliveries(
      ctx.db,
      ctx.owner,
      invoice.events.map((e) => e.id),
    ),
  ]);
  const checkoutPath = `/pay/${invoice.id}`;
  const rows: [string, React.ReactNode][] = [
    ['Amount expected', <Money key="e" value={invoice.amountExpected} currency={invoice.token} />],
    ['Amount received', <Money key="r" value={invoice.amountReceived} currency={invoice.token} />],
    [
      'Shortfall accepted',
      <span key="s" data-testid="shortfall">
        <Money value={invoice.amountShortfall} currency={invoice.token} /> (tolerance {invoice.underpaymentTolerancePercent}%)
      </span>,
    ],
    ...(invoice.priceCurrency
      ? ([
          [
            'Price',
            <span key="p" data-testid="price">
              {invoice.priceAmount} {invoice.priceCurrency} at {invoice.rate} {invoice.token} each ({invoice.rateSource},{' '}
              <Time iso={invoice.rateAt!} withSeconds />)
            </span>,
          ],
        ] as [string, React.ReactNode][])
      : []),
    ['Gateway fee', <Money key="f" value={invoice.feeAmount} currency={invoice.token} />],
    ['Credited to balance', <Money key="c" value={invoice.amountCredited} currency={invoice.token} />],
    ['Confirmations required', invoice.confirmationsRequired],
    ['External id', invoice.externalId ?? '—'],
    ['Description', invoice.description ?? '—'],
    ['Created', <Time key="cr" iso={invoice.createdAt} withSeconds />],
    ['Expires', <Time key="ex" iso={invoice.expiresAt} withSeconds />],
  ];
  return (
    <>
      <div className="mb-6">
        <p className="text-sm text-slate-500">Invoice</p>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
            <Money value={invoice.amountExpected} currency={invoice.token} />
          </h1>
          <span data-testid="invoice-status">
            <StatusBadge status={invoice.status} />
          </span>
          <OverpaidBadge status={invoice.status} expected={invoice.amountExpected} received={invoice.amountReceived} token={invoice.token} />
          {gone ? (
            <span className="text-xs text-amber-800" data-testid="chain-gone">
              {CHAIN_GONE_TEXT}
            </span>
          ) : (
            <InvoiceWatcher id={invoice.id} status={invoice.status} watchKey={watch.key} refundsMoving={watch.refundsMoving} />
          )}
        </div>
        <p className="mt-1 font-mono text-xs text-slate-500">{invoice.id}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Details" className="lg:col-span-2">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt className="text-slate-500">{k}</dt>
                <dd className="mt-0.5 text-slate-900">{v}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-5 border-t border-slate-100 pt-4 text-sm">
            <p className="text-slate-500">Hosted checkout</p>
            <div className="mt-1 flex items-center gap-2">
              <a href={checkoutPath} className="min-w-0 break-all font-mono text-xs text-indigo-600 hover:underline" data-testid="checkout-link">
                {checkoutPath}
              </a>
              <CopyButton value={checkoutPath} label="Copy" />
            </div>
          </div>
        </Card>
        <Card title="Deposit address">
          {gone ? (
            // Its chain is gone: nothing sent to it now is seen, so no QR code invites a payment (issue 45).
            <p className="text-center text-xs text-amber-800" data-testid="deposit-not-watched">
              {CHAIN_GONE_TEXT}: a payment sent to it now is not seen.
            </p>
          ) : (
            <div className="mx-auto h-44 w-44" aria-label="QR code of the deposit address" role="img" dangerouslySetInnerHTML={{ __html: qr }} />
          )}
          <p className="mt-3 break-all text-center font-mono text-xs text-slate-800" data-testid="deposit-address">
            {invoice.depositAddress}
          </p>
          <div className="mt-2 flex justify-center">
            <CopyButton value={invoice.depositAddress} />
          </div>
          <p className="mt-2 text-center text-xs text-slate-500" data-testid="deposit-rail">
            {railLabel(invoice.chain, invoice.token)} only.
          </p>
          {ctx.mode === 'test' && can(ctx.user.role, 'invoices:create') && invoice.status === 'PENDING' && !gone && (
            <SimulatePayment id={invoice.id} amount={invoice.amountExpected} />
          )}
        </Card>
      </div>
      {/* Side by side only where the Payments table fits (it clipped its last column at 1280 px); min-w-0 lets it scroll inside its card otherwise. */}
      <div className="mt-4 grid gap-4 2xl:grid-cols-2">
        <Card title="Payments" className="min-w-0">
          {invoice.payments.length === 0 ? (
            <EmptyState title="No payment yet">The watcher picks up transfers to the deposit address within seconds.</EmptyState>
          ) : (
            <div className="-m-5 overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    {['Transaction', 'Amount', 'Confirmations', 'Seen'].map((h) => (
                      <th key={h} className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {invoice.payments.map((p) => (
                    <tr key={`${p.txHash}:${p.logIndex}`}>
                      <td className={tdClass}>
                        <TxLink chainId={chainIdOf(p.chain)} hash={p.txHash} />
                        {p.chain !== invoice.chain && <span className="ml-2 text-xs text-amber-700">on {p.chain}</span>}
                        {p.late && <span className="ml-2 text-xs text-amber-700">late</span>}
                      </td>
                      <td className={tdClass}>
                        <Money value={p.amount} currency={invoice.token} />
                      </td>
                      <td className={tdClass}>
                        {gone ? (
                          // The chain is gone: the count stopped when it was last watched (it read a frozen "3867").
                          <span data-testid="confirmations-not-watched">{p.confirmations} when last watched</span>
                        ) : (
                          p.confirmations
                        )}
                      </td>
                      <td className={tdClass}>
                        <Time iso={p.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        {invoice.heldPayments.length > 0 && (
          <HeldPayments
            invoiceId={invoice.id}
            payments={invoice.heldPayments}
            chainIdOf={chainIdOf}
            canCredit={can(ctx.user.role, 'held-payments:resolve')}
            canRefund={can(ctx.user.role, 'withdrawals:create')}
          />
        )}
        <Card title="Timeline" className="min-w-0">
          <ol className="relative space-y-3 border-l border-slate-200 pl-4" data-testid="timeline">
            {invoice.events.map((e) => (
              <li key={e.id} className="text-sm">
                <span className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full border-2 border-white bg-indigo-500" aria-hidden="true" />
                <p className="font-medium text-slate-900">{e.type}</p>
                <p className="text-xs text-slate-500">
                  <Time iso={e.createdAt} withSeconds /> · <span className="font-mono">{e.id}</span>
                </p>
              </li>
            ))}
          </ol>
        </Card>
      </div>
      {(refunds.settled !== '0.00' || refunds.data.length > 0 || requests.data.length > 0 || claims.data.length > 0) && (
        <Card title="Refunds" className="mt-4">
          <p className="text-sm text-slate-600" data-testid="refundable">
            Settled {refunds.settled} {invoice.token} · refunded {refunds.refunded} · refundable <strong>{refunds.refundable}</strong>
          </p>
          {refunds.data.length > 0 && (
            <div className="-mx-5 mt-3 overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Amount</th>
                    <th className={thClass}>Fee</th>
                    <th className={thClass}>To</th>
                    <th className={thClass}>Status</th>
                    <th className={thClass}>Transaction</th>
                  </tr>
                </thead>
                <tbody>
                  {refunds.data.map((r) => (
                    <tr key={r.id} data-refund-id={r.id}>
                      <td className={tdClass}>
                        <Money value={r.amount} currency={invoice.token} />
                      </td>
                      <td className={tdClass}>
                        <Money value={r.feeAmount} currency={invoice.token} />
                      </td>
                      <td className={`${tdClass} font-mono text-xs`}>{r.destinationAddress}</td>
                      <td className={tdClass}>
                        <StatusBadge status={r.status} />
                      </td>
                      <td className={tdClass}>{r.txHash ? <TxLink chainId={network.chainId} hash={r.txHash} /> : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {requests.data.length > 0 && (
            <RefundRequests
              invoiceId={invoice.id}
              requests={requests.data}
              senders={senders}
              suggested={suggested}
              claimAmounts={claimAmounts}
              token={invoice.token}
              chain={invoice.chain}
              facts={facts}
              canDecide={can(ctx.user.role, 'withdrawals:create')}
              totpEnabled={ctx.user.totpEnabled}
            />
          )}
          {(claims.data.length > 0 || (can(ctx.user.role, 'withdrawals:create') && refunds.refundable !== '0.00')) && (
            <RefundClaims
              invoiceId={invoice.id}
              claims={claims.data}
              token={invoice.token}
              chain={invoice.chain}
              canCreate={can(ctx.user.role, 'withdrawals:create')}
              refundable={refunds.refundable}
              totpEnabled={ctx.user.totpEnabled}
            />
          )}
          {can(ctx.user.role, 'withdrawals:create') && refunds.refundable !== '0.00' && (
            <RefundForm
              invoiceId={invoice.id}
              suggested={suggested}
              refundable={refunds.refundable}
              totpEnabled={ctx.user.totpEnabled}
              chain={invoice.chain}
              token={invoice.token}
              facts={facts}
            />
          )}
        </Card>
      )}
      <Card title="Webhook deliveries of this invoice's events" className="mt-4">
        {deliveries.length === 0 ? (
          <EmptyState title="No deliveries">Add a webhook endpoint to be notified of these events.</EmptyState>
        ) : (
          <div className="-m-5 overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  {['Event', 'Status', 'Attempts', 'Last response', 'Created'].map((h) => (
                    <th key={h} className={thClass}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td className={tdClass}>
                      <Link href={`/dashboard/webhooks/deliveries?eventId=${d.eventId}`} className="text-indigo-600 hover:underline">
                        {d.eventType}
                      </Link>
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={d.status} />
                    </td>
                    <td className={tdClass}>{d.attemptCount}</td>
                    <td className={tdClass}>{d.attempts.at(-1)?.responseStatus ?? d.lastError ?? '—'}</td>
                    <td className={tdClass}>
                      <Time iso={d.createdAt} withSeconds />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}
