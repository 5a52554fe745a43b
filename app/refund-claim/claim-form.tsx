'use client';

import { useActionState } from 'react';
import { RefundAddressForm } from '@/components/checkout/refund-address-form';
import type { ClaimPageView } from '@/lib/refunds/claims/claim-page';
import { redeemRefundClaimAction, type ClaimFormState } from './actions';

/** The payer's address for a merchant's refund claim link; posts without JavaScript too (a server action form). */
export function ClaimForm({ token, claim }: { token: string; claim: ClaimPageView }) {
  const [state, action, pending] = useActionState<ClaimFormState, FormData>(redeemRefundClaimAction, {});
  if (state.done) {
    return (
      <p role="status" data-testid="claim-done" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-emerald-800">
        Thank you. Your refund of{' '}
        <strong className="tabular-nums">
          {state.done.amount} {claim.token}
        </strong>{' '}
        to <span className="break-all font-mono">{state.done.address}</span> has been requested: {claim.tenantName} sends it once they approve.
      </p>
    );
  }
  return (
    <RefundAddressForm
      action={action}
      pending={pending}
      error={state.error}
      inputId="claim-address"
      addressFamily={claim.addressFamily}
      label={`Your ${claim.rail} address`}
      hidden={{ token }}
      submitLabel="Request refund"
      note={`Use a wallet you control on ${claim.rail.split(' on ')[1]}: an exchange deposit address may not credit a refund. This link works once.`}
    />
  );
}
