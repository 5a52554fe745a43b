'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormError, inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { Time } from '@/components/ui/time';
import { useFormSubmit, withFirstDetail } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import type { RefundRequestView } from '@/lib/refunds/requests/schemas';
import type { ChainKey } from '@/lib/config/rails';
import type { RefundFacts, RefundPrice } from '@/lib/refunds/price-refund';
import { approveRefundRequestAction, declineRefundRequestAction } from './refund-actions';
import { approveBlocked, confirmRows, reviewOrRefuse } from './refund-quote';

const REASONS: Record<string, string> = {
  awaiting_settlement: 'auto-refund waits until the payment is confirmed and credited',
  manual_source: 'not automatic: the address came with only the invoice link, which others may have seen; check it against the sender',
  before_policy: 'not automatic: paid before your auto-refund policy was switched on',
  over_auto_refund_bound: 'not automatic: above your auto-refund bound',
  unpaid_invoice: 'not automatic: a late or partial payment of an unpaid invoice',
  withdrawal_limit_exceeded: 'auto-refund stopped: over your 24 h withdrawal limit',
  insufficient_balance: 'auto-refund stopped: the balance cannot pay it and its fee',
};

/** One undecided proposal: refund to the payer's address (amount prefilled to the default) or decline with a reason. */
function Decide({
  invoiceId,
  r,
  suggested,
  totpEnabled,
  chain,
  token,
  facts,
}: {
  invoiceId: string;
  r: RefundRequestView;
  suggested: string;
  totpEnabled: boolean;
  chain: ChainKey;
  token: string;
  /** The figures the server prices refunds with (refund-pricing.ts, refundFacts). */
  facts: RefundFacts;
}) {
  const router = useRouter();
  const toast = useToast();
  const [totpCode, setTotpCode] = useState('');
  const { formError: error, setFormError: setError, busy, run } = useFormSubmit({ message: withFirstDetail });
  const [amount, setAmount] = useState(suggested === '0.00' ? '' : suggested);
  const [reason, setReason] = useState('');
  const [review, setReview] = useState<RefundPrice | null>(null);
  // Nothing settled yet (a payment still confirming or paying out): nothing to approve, said so on the button.
  const unsettled = approveBlocked(facts);
  const finish = (res: { ok: boolean }, done: string) => {
    if (!res.ok) return;
    toast(done);
    router.refresh();
  };
  return (
    <form aria-label="Refund request" className="mt-2 space-y-2" onSubmit={(e) => e.preventDefault()}>
      <FormError message={error ?? undefined} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="w-36 text-xs font-medium text-slate-600">
          Amount ({token})
          <input className={inputClass} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value.trim())} />
        </label>
        <Button
          size="sm"
          disabled={busy || unsettled !== null}
          aria-describedby={unsettled ? `rq-unsettled-${r.id}` : undefined}
          onClick={() => {
            // What the server would refuse is refused before the review, in its words.
            const v = reviewOrRefuse(facts, { suggested, typed: amount, chain });
            if ('error' in v) return setError(v.error);
            setError(null);
            setReview(v.review.price);
          }}
        >
          Approve refund
        </Button>
        {unsettled ? (
          <span id={`rq-unsettled-${r.id}`} className="text-xs text-slate-600" data-testid="approve-unsettled">
            {unsettled}
          </span>
        ) : null}
      </div>
      <ConfirmStep
        open={review !== null}
        title="Confirm refund to the payer's address"
        confirmLabel="Confirm refund"
        busy={busy}
        error={error}
        stepUp={{ id: `rq-totp-${r.id}`, enabled: totpEnabled, value: totpCode, onChange: setTotpCode }}
        onCancel={() => setReview(null)}
        onConfirm={async () => {
          const res = await run(() => approveRefundRequestAction(invoiceId, r.id, amount ? { amount } : {}, { totpCode }));
          if (res.ok) setReview(null);
          finish(res, "Refund to the payer's address created");
        }}
        rows={review ? confirmRows(review, token, chain, r.destinationAddress) : []}
        note="Sent from the gateway's hot wallet; a transaction on chain cannot be undone."
      />
      <div className="flex flex-wrap items-end gap-2">
        <label className="min-w-60 flex-1 text-xs font-medium text-slate-600">
          Reason shown to the payer (optional)
          <input className={inputClass} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <Button
          size="sm"
          variant="secondary"
          disabled={busy}
          onClick={async () =>
            finish(
              await run(() => declineRefundRequestAction(invoiceId, r.id, reason.trim() ? { reason: reason.trim() } : {})),
              'Refund request declined',
            )
          }
        >
          Decline
        </Button>
      </div>
    </form>
  );
}

/** How the proposer proved they may say where the money goes. */
const SOURCES: Record<RefundRequestView['source'], string> = {
  payer_token: "payer's checkout",
  claim_link: 'your claim link',
  invoice_link: 'invoice link (unverified)',
};

/**
 * Refund addresses proposed for the invoice, newest first, each with how it was proposed and, beside it, the
 * on-chain sender(s) of the payment, so the owner sees whether the money would go back where it came from; the
 * owner decides the undecided one.
 */
export function RefundRequests({
  invoiceId,
  requests,
  senders,
  suggested,
  claimAmounts = {},
  token,
  chain = 'BSC',
  facts,
  canDecide,
  totpEnabled,
}: {
  invoiceId: string;
  requests: RefundRequestView[];
  /** EIP-55 `from` addresses of the invoice's payments. */
  senders: string[];
  suggested: string;
  /** Requests made with a refund claim link, and the link's amount (their default). */
  claimAmounts?: Record<string, string>;
  /** The invoice's token: every amount here is in it. */
  token: string;
  chain?: ChainKey;
  /** The figures the server prices refunds with: the review states the fee, who pays it and what the payer receives. */
  facts: RefundFacts;
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
              <span className="font-mono text-xs" data-testid="proposed-address">
                {r.destinationAddress}
              </span>
              <span className="text-slate-500">
                asked <Money value={r.amount} currency={token} /> · <Time iso={r.createdAt} /> · via{' '}
                <span data-testid="request-source" data-source={r.source}>
                  {SOURCES[r.source]}
                </span>
              </span>
            </div>
            <p className="mt-1 text-xs text-slate-500" data-testid="payment-sender">
              Paid from {senders.length === 0 ? 'no recorded sender' : <span className="font-mono">{senders.join(', ')}</span>}
              {senders.includes(r.destinationAddress) ? (
                <span className="text-emerald-700"> · same address</span>
              ) : senders.length > 0 ? (
                <span className="text-amber-700"> · a different address</span>
              ) : null}
            </p>
            {r.status === 'PENDING' && r.autoRefundAfter ? (
              <p className="mt-1 text-xs text-slate-500" data-testid="auto-refund-after">
                Auto-refund from <Time iso={r.autoRefundAfter} /> unless you decline before.
              </p>
            ) : null}
            {r.pendingReason ? <p className="mt-1 text-xs text-amber-700">{REASONS[r.pendingReason] ?? r.pendingReason}</p> : null}
            {r.declineReason ? <p className="mt-1 text-xs text-slate-500">Declined: “{r.declineReason}”</p> : null}
            {r.status === 'APPROVED' && r.decidedBy === 'policy' ? (
              <p className="mt-1 text-xs text-slate-500">Refunded by your auto-refund policy.</p>
            ) : null}
            {r.status === 'PENDING' && canDecide ? (
              <Decide
                invoiceId={invoiceId}
                r={r}
                suggested={claimAmounts[r.id] ?? suggested}
                totpEnabled={totpEnabled}
                chain={chain}
                token={token}
                facts={facts}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
