'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { creditMismatchedPaymentAction } from './refund-actions';

/** "Count it": a held payment of the invoice's token on another network becomes a payment of the invoice. */
export function CreditMismatchedButton({ invoiceId, paymentId }: { invoiceId: string; paymentId: string }) {
  const router = useRouter();
  const toast = useToast();
  const [error, setError] = useState<string | undefined>();
  return (
    <span>
      <Button
        type="button"
        variant="secondary"
        onClick={async () => {
          const res = await creditMismatchedPaymentAction(invoiceId, paymentId);
          if (!res.ok) return setError(res.error.message);
          toast('Counted towards the invoice');
          router.refresh();
        }}
      >
        Count it
      </Button>
      {error ? <span className="ml-2 text-xs text-red-700">{error}</span> : null}
    </span>
  );
}
