'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, tableClass, tdClass, thClass } from '@/components/ui/card';
import { FormError } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { StepUpField } from '@/components/ui/step-up-field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { payoutResultsCsv } from '@/lib/payouts/payout-csv';
import type { PayoutView } from '@/lib/payouts/schemas';
import { decidePayoutAction, getPayoutAction } from '../actions';
import { ScrollHint } from '@/components/ui/scroll-hint';

const DP = 2;

/** Polls the payout every 2 s while any item can still change (TanStack Query), then stops. */
export function PayoutProgress({ initial, canDecide, totpEnabled }: { initial: PayoutView; canDecide: boolean; totpEnabled: boolean }) {
  const client = useQueryClient();
  const { data: p } = useQuery({
    queryKey: ['payout', initial.id],
    queryFn: async () => {
      const res = await getPayoutAction(initial.id);
      if (!res.ok) throw new Error(res.error.message);
      return res.data;
    },
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.status === 'COMPLETED' ? false : 2000),
  });
  const live = p.status !== 'COMPLETED';

  function download() {
    const blob = new Blob([payoutResultsCsv(p)], { type: 'text/csv;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `${p.id}-results.csv`;
    a.click();
    URL.revokeObjectURL(a.href);
  }

  return (
    <div className="space-y-4">
      {p.awaitingApproval && canDecide && (
        <Decide id={p.id} totpEnabled={totpEnabled} onDone={(next) => client.setQueryData(['payout', initial.id], next)} />
      )}
      <Card
        title={
          <span className="flex items-center gap-3">
            <StatusBadge status={p.awaitingApproval ? 'AWAITING_APPROVAL' : p.status} />
            <span data-testid="payout-counts" className="text-xs font-normal text-slate-500">
              {p.counts.completed} completed · {p.counts.failed} failed · {p.counts.pending} pending
            </span>
            {live && <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-label="Live updates" />}
          </span>
        }
        actions={
          <Button variant="secondary" size="sm" onClick={download} data-testid="download-results">
            Download results (CSV)
          </Button>
        }
      >
        <dl className="mb-4 flex flex-wrap gap-6 text-sm">
          {p.totals.map((t) => (
            <div key={t.token}>
              <dt className="text-slate-500">{t.token} debited</dt>
              <dd className="font-medium">
                <Money value={t.amount} currency={t.token} dp={DP} /> + <Money value={t.feeAmount} currency={null} dp={DP} /> fees
              </dd>
            </div>
          ))}
        </dl>
        <ScrollHint id="items-scroll" />
        <div className="-mx-5 -mb-5 overflow-x-auto" tabIndex={0} aria-describedby="items-scroll">
          <table className={tableClass}>
            <thead>
              <tr>
                {['#', 'Reference', 'Status', 'Network', 'Destination', 'Amount', 'Fee', 'Network fee', 'Transaction'].map((h) => (
                  <th key={h} className={thClass}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody aria-live="polite">
              {p.items.map((i) => (
                <tr key={i.position} data-item={i.position} data-status={i.status}>
                  <td className={tdClass}>{i.position + 1}</td>
                  <td className={`${tdClass} font-mono text-xs`}>{i.reference}</td>
                  <td className={tdClass}>
                    <StatusBadge status={i.pendingReason === 'awaiting_approval' ? 'AWAITING_APPROVAL' : i.status} />
                    {i.failureReason && <span className="ml-2 text-xs text-red-700">{i.failureReason}</span>}
                  </td>
                  <td className={tdClass}>
                    {i.token} · {i.chain}
                  </td>
                  <td className={`${tdClass} font-mono text-xs`}>{i.destinationAddress}</td>
                  <td className={tdClass}>
                    <Money value={i.amount} currency={i.token} dp={DP} />
                  </td>
                  <td className={tdClass}>
                    <Money value={i.feeAmount} currency={null} dp={DP} />
                  </td>
                  <td className={tdClass} data-network-fee={i.networkFee ?? ''} title={i.networkFeeNote ?? undefined}>
                    {/* Reserved at the debit; once the item ends, what it was charged (a batch's share, the rest credited back). */}
                    {i.networkFee === null ? (
                      <span className="text-slate-500">
                        <Money value={i.networkFeeReserved} currency={null} dp={DP} /> reserved
                      </span>
                    ) : (
                      <Money value={i.networkFee} currency={null} dp={DP} />
                    )}
                    {i.networkFee !== null && i.networkFee !== i.networkFeeReserved && (
                      <span className="ml-1 text-xs text-slate-500">
                        of <Money value={i.networkFeeReserved} currency={null} dp={DP} />
                      </span>
                    )}
                  </td>
                  <td className={`${tdClass} font-mono text-xs`} title={i.txHash ?? undefined}>
                    {i.txHash ? `${i.txHash.slice(0, 12)}…` : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}

/** The ONE decision on a batch held above the approval threshold (a key's): every item released, or every one rejected. */
function Decide({ id, totpEnabled, onDone }: { id: string; totpEnabled: boolean; onDone: (p: PayoutView) => void }) {
  const [totpCode, setTotpCode] = useState('');
  const { formError, busy, run } = useFormSubmit();
  const decide = async (decision: 'approve' | 'reject') => {
    const res = await run(() => decidePayoutAction(id, decision, { totpCode }));
    if (res.ok) onDone(res.data);
  };
  return (
    <Card title="Awaiting your approval">
      <p className="mb-3 text-sm text-slate-600">This batch is above your approval threshold: nothing is sent until you approve it, as a whole.</p>
      <FormError message={formError} />
      <div className="flex flex-wrap items-end gap-2">
        <StepUpField id="payout-decide-totp" enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />
        <Button onClick={() => decide('approve')} disabled={busy}>
          Approve payout
        </Button>
        <Button variant="secondary" onClick={() => decide('reject')} disabled={busy}>
          Reject payout
        </Button>
      </div>
    </Card>
  );
}
