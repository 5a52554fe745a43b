import Link from 'next/link';
import { Badge, StatusBadge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { Time } from '@/components/ui/time';
import type { DashboardContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { emergencyReasonText } from '@/lib/exchange/exchange-advice';
import { listOrdersNeedingAttention } from '@/lib/exchange/list-orders-needing-attention';
import { EmergencyDecisionForm } from './emergency-decision-form';

const PURPOSE: Record<string, string> = { withdrawal: 'Withdrawal', payin: 'Pay-in', manual: 'Manual order' };
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Exchange orders in EXPIRED or EMERGENCY (docs/exchange.md, "When an order needs you"); nothing at all when there are none. */
export async function ExchangeAttention({ ctx }: { ctx: DashboardContext }) {
  const orders = await listOrdersNeedingAttention(ctx.db, ctx.owner);
  if (orders.length === 0) return null;
  const canDecide = can(ctx.user.role, 'withdrawals:create');
  return (
    <Card title={`Exchange orders that need you (${orders.length})`} className="mb-4">
      <ul className="space-y-4" data-testid="exchange-attention">
        {orders.map((o) => (
          <li key={o.id} className="rounded-md border border-slate-200 p-4 text-sm" data-exchange-order={o.id}>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <StatusBadge status={o.status} />
              {o.reasons.length > 0 && <Badge tone="amber">{capitalised(emergencyReasonText(o.reasons))}</Badge>}
              {o.choice !== 'NONE' && <Badge tone="blue">{o.choice === 'REFUND' ? 'Refund chosen' : 'Exchange chosen'}</Badge>}
              <span className="text-slate-700">
                {o.fromAmount ? <Money value={o.fromAmount} currency={o.fromCcy} /> : o.fromCcy} →{' '}
                {o.toAmount ? <Money value={o.toAmount} currency={o.toCcy} /> : o.toCcy}
              </span>
              <span className="text-slate-500">
                {PURPOSE[o.purpose] ?? o.purpose}
                {o.withdrawalId && (
                  <>
                    {' '}
                    <span className="font-mono text-xs">{o.withdrawalId}</span>
                  </>
                )}
                {o.invoiceId && (
                  <>
                    {' '}
                    invoice{' '}
                    <Link className="font-mono text-xs text-indigo-600 hover:underline" href={`/dashboard/invoices/${o.invoiceId}`}>
                      {o.invoiceId}
                    </Link>
                  </>
                )}
              </span>
              <span className="text-slate-500">
                exchange order <span className="font-mono text-xs">{o.exchangeId ?? '—'}</span> · <Time iso={o.createdAt} />
              </span>
            </div>
            <p className="mt-2 text-slate-700">
              <strong>What to do:</strong> {o.advice}
            </p>
            {o.canResolve &&
              (canDecide ? (
                <EmergencyDecisionForm orderId={o.id} fromCcy={o.fromCcy} />
              ) : (
                <p className="mt-2 text-slate-500">Only the account owner can decide.</p>
              ))}
          </li>
        ))}
      </ul>
    </Card>
  );
}
