'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { networkLabel } from '@/lib/checkout/network-label';
import type { ChainKey } from '@/lib/config/rails';
import { creditHeldPaymentAction, refundHeldPaymentAction } from './refund-actions';

/**
 * A held payment's resolutions: "Count it" (the invoice's token from another network counts towards
 * the invoice) or "Credit to <token> balance" (another token), and "Send back" (to its sender).
 */
export function ResolveHeldButtons({
  invoiceId,
  paymentId,
  mismatch,
  token,
  canCredit,
  canRefund,
  amount,
  chain,
  fromAddress,
}: {
  invoiceId: string;
  paymentId: string;
  mismatch: 'network' | 'token';
  token: string;
  canCredit: boolean;
  canRefund: boolean;
  /** The held payment as sent: Send back returns it in its token on its network to its sender. */
  amount: string;
  chain: ChainKey;
  fromAddress: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, setFormError, busy, run } = useFormSubmit();
  const [reviewing, setReviewing] = useState(false);
  const resolve = async (action: () => ReturnType<typeof creditHeldPaymentAction>, done: string) => {
    const res = await run(action);
    if (!res.ok) return;
    setReviewing(false);
    toast(done);
    router.refresh();
  };
  return (
    <span className="flex flex-wrap items-center gap-2">
      {canCredit ? (
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() =>
            resolve(
              () => creditHeldPaymentAction(invoiceId, paymentId),
              mismatch === 'network' ? 'Counted towards the invoice' : `Credited to the ${token} balance once swept`,
            )
          }
        >
          {mismatch === 'network' ? 'Count it' : `Credit to ${token} balance`}
        </Button>
      ) : null}
      {canRefund ? (
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() => {
            setFormError(null);
            setReviewing(true);
          }}
        >
          Send back
        </Button>
      ) : null}
      {canRefund ? (
        <ConfirmStep
          open={reviewing}
          title="Confirm sending back"
          confirmLabel="Confirm send back"
          busy={busy}
          error={error}
          onCancel={() => setReviewing(false)}
          onConfirm={() => resolve(() => refundHeldPaymentAction(invoiceId, paymentId), 'Being sent back to the sender')}
          rows={[
            { label: 'Amount', value: `${amount} ${token}` },
            { label: 'Fee', value: `the network fee on ${chain}, from the amount or your balance as your refund settings say; no withdrawal fee` },
            { label: 'Asset', value: token },
            { label: 'Network', value: networkLabel(chain) },
            { label: 'Destination', value: fromAddress, mono: true },
          ]}
          note="Swept off the deposit address first, then sent to the address that paid it; a transaction on chain cannot be undone."
        />
      ) : null}
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
