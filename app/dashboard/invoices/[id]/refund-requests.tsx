'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormError, inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { StepUpField } from '@/components/ui/step-up-field';
import { Time } from '@/components/ui/time';
import { useToast } from '@/components/ui/toast';
import type { RefundRequestView } from '@/lib/refund-requests/schemas';
import { approveRefundRequestAction, declineRefundRequestAction } from './refund-actions';

const REASONS: Record<string, string> = {
  awaiting_settlement: 'auto-refund waits until the payment is confirmed and credited',
  withdrawal_limit_exceeded: 'auto-refund stopped: over your 24 h withdrawal limit',
  insufficient_balance: 'auto-refund stopped: the balance cannot pay it and its fee',
};

/** One undecided proposal: refund to the payer's address (amount prefilled to the default) or decline with a reason. */
function Decide({ invoiceId, r, suggested, totpEnabled }: { invoiceId: string; r: RefundRequestView; suggested: string; totpEnabled: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [totpCode, setTotpCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [amount, setAmount] = useState(suggested === '0.00' ? '' : suggested);
  const [reason, setReason] = useState('');
  const finish = async (res: Awaited<ReturnType<typeof declineRefundRequestAction>>, done: string) => {
    setBusy(false);
    if (!res.ok) return setError(res.error.details?.[0]?.message ? `${res.error.message} (${res.error.details[0].message})` : res.error.message);
    toast(done);
    router.refresh();
  };
  return (
    <form aria-label="Refund request" className="mt-2 space-y-2" onSubmit={(e) => e.preventDefault()}>
      <FormError message={error ?? undefined} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="w-36 text-xs font-medium text-slate-600">
          Amount (USDT)
          <input className={inputClass} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.trim())} />
        </label>
        <StepUpField id={`rq-totp-${r.id}`} enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />
        <Button
          size="sm"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            const res = await approveRefundRequestAction(invoiceId, r.id, amount ? { amount } : {}, { totpCode });
            await finish(res, "Refund to the payer's address created");
          }}
        >
          Approve refund
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <label className="min-w-60 flex-1 text-xs font-medium text-slate-600">
          Reason shown to the payer (optional)
          <input className={inputClass} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <Button
          size="sm"
          variant="secondary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            await finish(
              await declineRefundRequestAction(invoiceId, r.id, reason.trim() ? { reason: reason.trim() } : {}),
              'Refund request declined',
            );
          }}
        >
          Decline
        </Button>
      </div>
    </form>
  );
}

/** Refund addresses the payer proposed on the checkout, newest first; the owner decides the undecided one. */
export function RefundRequests({
  invoiceId,
  requests,
  suggested,
  claimAmounts = {},
  canDecide,
  totpEnabled,
}: {
  invoiceId: string;
  requests: RefundRequestView[];
  suggested: string;
  /** Requests made with a refund claim link, and the link's amount (their default). */
  claimAmounts?: Record<string, string>;
  canDecide: boolean;
  totpEnabled: boolean;
}) {
  return (
    <section className="mt-4 border-t border-slate-100 pt-3" data-testid="refund-requests">
      <h3 className="text-sm font-medium text-slate-900">Refund addresses from the payer</h3>
      <ul className="divide-y divide-slate-100">
        {requests.map((r) => (
          <li key={r.id} className="py-2 text-sm" data-request-id={r.id} data-status={r.status}>
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge status={r.status} />
              <span className="font-mono text-xs">{r.destinationAddress}</span>
              <span className="text-slate-500">
                asked <Money value={r.amount} /> · <Time iso={r.createdAt} />
              </span>
            </div>
            {r.pendingReason ? <p className="mt-1 text-xs text-amber-700">{REASONS[r.pendingReason] ?? r.pendingReason}</p> : null}
            {claimAmounts[r.id] ? <p className="mt-1 text-xs text-slate-500">Given on your refund claim link.</p> : null}
            {r.declineReason ? <p className="mt-1 text-xs text-slate-500">Declined: “{r.declineReason}”</p> : null}
            {r.status === 'APPROVED' && r.decidedBy === 'policy' ? (
              <p className="mt-1 text-xs text-slate-500">Refunded by your auto-refund policy.</p>
            ) : null}
            {r.status === 'PENDING' && canDecide ? (
              <Decide invoiceId={invoiceId} r={r} suggested={claimAmounts[r.id] ?? suggested} totpEnabled={totpEnabled} />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
