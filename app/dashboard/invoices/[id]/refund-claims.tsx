'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { FormError, inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { Time } from '@/components/ui/time';
import { useFormSubmit, withFirstDetail } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import type { RefundClaimView } from '@/lib/refunds/claims/schemas';
import { networkLabel } from '@/lib/checkout/network-label';
import type { ChainKey } from '@/lib/config/rails';
import { cancelRefundClaimAction, createRefundClaimAction } from './refund-claim-actions';

/** The link as the payer opens it: absolute here when the server has no PUBLIC_BASE_URL. */
const absolute = (url: string) => (url.startsWith('/') ? `${window.location.origin}${url}` : url);

/** Makes a link; its URL is shown here once (only a hash is kept), with a copy button. */
function CreateClaim({
  invoiceId,
  refundable,
  totpEnabled,
  chain,
  token,
}: {
  invoiceId: string;
  refundable: string;
  totpEnabled: boolean;
  chain: ChainKey;
  token: string;
}) {
  const router = useRouter();
  const [totpCode, setTotpCode] = useState('');
  const { formError: error, setFormError: setError, busy, run } = useFormSubmit({ message: withFirstDetail });
  const [made, setMade] = useState<string | null>(null);
  const [review, setReview] = useState<{ amount: string; expiresInHours?: string } | null>(null);
  async function confirm() {
    if (!review) return;
    const res = await run(() => createRefundClaimAction(invoiceId, review, { totpCode }));
    if (!res.ok) return;
    setReview(null);
    setTotpCode('');
    setMade(absolute(res.data.url));
    router.refresh();
  }
  return (
    <form
      noValidate
      aria-label="Create refund claim link"
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const hours = String(f.get('expiresInHours') ?? '').trim();
        setError(null);
        setReview({ amount: String(f.get('amount') ?? '').trim(), ...(hours ? { expiresInHours: hours } : {}) });
      }}
    >
      <p className="text-xs text-slate-500">
        For a payer who cannot give an address on the checkout (paid from an exchange, lost the page): send them a one-time link where they enter it.
        You approve the request it makes like any other. Refundable now: {refundable}.
      </p>
      <FormError message={error ?? undefined} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="w-36 text-xs font-medium text-slate-600">
          Amount
          <input name="amount" className={inputClass} inputMode="decimal" required />
        </label>
        <label className="w-36 text-xs font-medium text-slate-600">
          Valid for (hours)
          <input name="expiresInHours" className={inputClass} inputMode="numeric" placeholder="72" />
        </label>
        <Button size="sm" disabled={busy} type="submit">
          Create refund claim link
        </Button>
      </div>
      <ConfirmStep
        open={review !== null}
        title="Confirm refund claim link"
        confirmLabel="Create the link"
        busy={busy}
        error={error}
        stepUp={{ id: 'claim-totp', enabled: totpEnabled, value: totpCode, onChange: setTotpCode }}
        onCancel={() => setReview(null)}
        onConfirm={confirm}
        rows={[
          { label: 'Amount', value: `${review?.amount ?? ''} ${token}` },
          { label: 'Fee', value: "the rail's network fee when you approve; no withdrawal fee" },
          { label: 'Asset', value: token },
          { label: 'Network', value: networkLabel(chain) },
          { label: 'Destination', value: 'the address the payer gives on the link (you approve it after)' },
          { label: 'Valid for', value: `${review?.expiresInHours ?? '72'} hours, once` },
        ]}
      />
      {made ? (
        <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-xs text-amber-900" data-testid="claim-url">
          <p className="font-medium">Send this link to the payer. It is shown only now and works once.</p>
          <div className="mt-1 flex items-center gap-2">
            <code className="break-all font-mono">{made}</code>
            <CopyButton value={made} />
          </div>
        </div>
      ) : null}
    </form>
  );
}

/** Cancel asks first, like every money button (issue 35): the payer's link stops working at once. */
function CancelClaim({ invoiceId, claim, token }: { invoiceId: string; claim: RefundClaimView; token: string }) {
  const router = useRouter();
  const toast = useToast();
  const { formError, busy, run } = useFormSubmit();
  const [reviewing, setReviewing] = useState(false);
  return (
    <>
      <Button size="sm" variant="secondary" disabled={busy} onClick={() => setReviewing(true)}>
        Cancel
      </Button>
      <ConfirmStep
        open={reviewing}
        title="Cancel refund claim link"
        confirmLabel="Cancel the link"
        busy={busy}
        error={formError}
        onCancel={() => setReviewing(false)}
        onConfirm={async () => {
          const res = await run(() => cancelRefundClaimAction(invoiceId, claim.id));
          if (!res.ok) return;
          setReviewing(false);
          toast('Refund claim link canceled');
          router.refresh();
        }}
        rows={[
          { label: 'Amount', value: `${claim.amount} ${token}` },
          { label: 'Expires', value: <Time iso={claim.expiresAt} /> },
        ]}
        note="The payer can no longer use the link; nothing moves. Make a new one to offer the refund again."
      />
    </>
  );
}

/** The invoice's refund claim links (never their URLs) and, for those who may refund, a way to make one. */
export function RefundClaims({
  invoiceId,
  claims,
  token,
  chain = 'BSC',
  canCreate,
  refundable,
  totpEnabled,
}: {
  invoiceId: string;
  claims: RefundClaimView[];
  /** The invoice's token: the claim's amount is in it. */
  token: string;
  chain?: ChainKey;
  canCreate: boolean;
  refundable: string;
  totpEnabled: boolean;
}) {
  return (
    <section className="mt-4 border-t border-slate-100 pt-3" data-testid="refund-claims">
      <h3 className="text-sm font-medium text-slate-900">Refund claim links</h3>
      {claims.length > 0 ? (
        <ul className="divide-y divide-slate-100">
          {claims.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2 py-2 text-sm" data-claim-id={c.id} data-status={c.status}>
              <StatusBadge status={c.status} />
              <Money value={c.amount} currency={token} />
              <span className="text-slate-500">
                created <Time iso={c.createdAt} /> ·{' '}
                {c.status === 'USED' && c.usedAt ? (
                  <>
                    used <Time iso={c.usedAt} />
                  </>
                ) : (
                  <>
                    expires <Time iso={c.expiresAt} />
                  </>
                )}
              </span>
              {c.status === 'OPEN' && canCreate ? <CancelClaim invoiceId={invoiceId} claim={c} token={token} /> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canCreate && refundable !== '0.00' ? (
        <CreateClaim invoiceId={invoiceId} refundable={refundable} totpEnabled={totpEnabled} chain={chain} token={token} />
      ) : null}
    </section>
  );
}
