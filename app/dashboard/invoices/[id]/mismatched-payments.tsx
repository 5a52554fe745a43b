import { Card, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { TxLink } from '@/components/ui/tx-link';
import { CreditMismatchedButton } from './credit-mismatched-button';
import type { MismatchedPaymentEventDataView } from '@/lib/events/payloads';

/** Payments held apart: another token, or another network under the hold policy. The money stays on the deposit address. */
export function MismatchedPayments({
  invoiceId,
  payments,
  chainIdOf,
  canCredit,
}: {
  invoiceId: string;
  payments: MismatchedPaymentEventDataView[];
  chainIdOf: (chain: string) => number;
  canCredit: boolean;
}) {
  return (
    <Card title="Mismatched payments (held)" className="min-w-0">
      <p className="mb-3 text-xs text-slate-500">
        Sent in another token or on another network than the invoice asks for. Not counted towards the invoice and not credited; the funds stay on the
        deposit address, whose key the gateway holds on every EVM network.
      </p>
      <div className="-mx-5 overflow-x-auto" data-testid="mismatched-payments">
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
                    <Money value={p.amount} /> {p.token}
                  </td>
                  <td className={tdClass}>
                    {p.mismatch === 'token' ? `another token (invoice: ${p.invoiceToken})` : `another network (invoice: ${p.invoiceChain})`}
                  </td>
                  <td className={tdClass}>
                    {p.status === 'credited' ? (
                      <span className="text-xs text-emerald-700">counted</span>
                    ) : canCredit && p.mismatch === 'network' ? (
                      <CreditMismatchedButton invoiceId={invoiceId} paymentId={p.id} />
                    ) : null}
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
