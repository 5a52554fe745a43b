import { Card, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { TxLink } from '@/components/ui/tx-link';
import { ResolveHeldButtons } from './resolve-held-buttons';
import type { HeldPaymentEventDataView } from '@/lib/events/payloads';

const STATUS_LABEL: Record<HeldPaymentEventDataView['status'], string> = {
  held: 'held',
  credited: 'credited',
  refunding: 'being sent back',
  refunded: 'sent back',
  frozen: 'kept by the operator after review',
};

/** Payments held apart: another token, or another network under the hold policy. The money stays on the deposit address. */
export function HeldPayments({
  invoiceId,
  payments,
  chainIdOf,
  canCredit,
  canRefund,
}: {
  invoiceId: string;
  payments: HeldPaymentEventDataView[];
  chainIdOf: (chain: string) => number;
  canCredit: boolean;
  canRefund: boolean;
}) {
  return (
    <Card title="Held payments (held)" className="min-w-0">
      <p className="mb-3 text-xs text-slate-500">
        Sent in another token or on another network than the invoice asks for. Not counted towards the invoice and not credited until you decide; the
        funds stay on the deposit address, whose key the gateway holds on every EVM network. Count it (or credit another token to its balance), or
        send it back to the sender: either way it is swept on its own network first.
      </p>
      <div className="-mx-5 overflow-x-auto" data-testid="held-payments">
        <table className={tableClass}>
          <thead>
            <tr>
              {['Transaction', 'Network', 'Amount', 'Why', ''].map((h) => (
                <th key={h} className={thClass}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => {
              return (
                <tr key={p.id}>
                  <td className={tdClass}>
                    <TxLink chainId={chainIdOf(p.chain)} hash={p.txHash} />
                  </td>
                  <td className={tdClass}>{p.chain}</td>
                  <td className={tdClass}>
                    <Money value={p.amount} currency={p.token} />
                  </td>
                  <td className={tdClass}>
                    {p.mismatch === 'screening'
                      ? 'held for review'
                      : p.mismatch === 'token'
                        ? `another token (invoice: ${p.invoiceToken})`
                        : `another network (invoice: ${p.invoiceChain})`}
                  </td>
                  <td className={tdClass}>
                    {p.status === 'held' && p.refundFailureReason ? (
                      <p className="mb-1 text-xs text-red-700" data-testid="held-refund-failed">
                        {p.refundFailureReason} The money is in your {p.token} balance: send it back again, or credit it.
                      </p>
                    ) : null}
                    {p.status === 'held' && p.mismatch === 'screening' ? (
                      <span className="text-xs text-amber-700" data-testid="held-for-review">
                        held for review by the operator: not credited yet
                      </span>
                    ) : p.status === 'held' ? (
                      <ResolveHeldButtons
                        invoiceId={invoiceId}
                        paymentId={p.id}
                        mismatch={p.mismatch === 'token' ? 'token' : 'network'}
                        token={p.token}
                        canCredit={canCredit}
                        canRefund={canRefund}
                        amount={p.amount}
                        chain={p.chain}
                        fromAddress={p.fromAddress}
                      />
                    ) : (
                      <span className="text-xs text-emerald-700" data-testid="held-status">
                        {STATUS_LABEL[p.status]}
                        {p.refundAddress ? ` to ${p.refundAddress.slice(0, 10)}…` : ''}
                      </span>
                    )}
                    {p.reorgedAt && (
                      <p className="mt-1 text-xs font-medium text-red-700" data-testid="held-reorged">
                        A chain reorganisation deeper than the confirmations dropped this payment after it was {STATUS_LABEL[p.status]}. It will not
                        be credited or sent back again; the operator has been alerted.
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
