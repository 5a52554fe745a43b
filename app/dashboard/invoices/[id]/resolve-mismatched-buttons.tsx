'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { creditMismatchedPaymentAction, refundMismatchedPaymentAction } from './refund-actions';

/**
 * A held payment's resolutions: "Count it" (the invoice's token from another network counts towards
 * the invoice) or "Credit to <token> balance" (another token), and "Send back" (to its sender).
 */
export function ResolveMismatchedButtons({
  invoiceId,
  paymentId,
  mismatch,
  token,
  canCredit,
  canRefund,
}: {
  invoiceId: string;
  paymentId: string;
  mismatch: 'network' | 'token';
  token: string;
  canCredit: boolean;
  canRefund: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => ReturnType<typeof creditMismatchedPaymentAction>, done: string) => {
    setBusy(true);
    const res = await action();
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
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
            run(
              () => creditMismatchedPaymentAction(invoiceId, paymentId),
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
          onClick={() => run(() => refundMismatchedPaymentAction(invoiceId, paymentId), 'Being sent back to the sender')}
        >
          Send back
        </Button>
      ) : null}
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
