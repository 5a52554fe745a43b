'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { useToast } from '@/components/ui/toast';
import { cancelOrderAction, fulfillOrderAction } from './actions';

/** Fulfil a paid order; cancel an unpaid one (a paid order's money is refunded by a withdrawal, not here). */
export function OrderActions({ id, status }: { id: string; status: string }) {
  const router = useRouter();
  const toast = useToast();
  if (status === 'PAID') {
    return (
      <Button
        size="sm"
        onClick={async () => {
          const res = await fulfillOrderAction(id);
          if (!res.ok) return toast(res.error.message, 'error');
          toast('Order fulfilled');
          router.refresh();
        }}
      >
        Mark fulfilled
      </Button>
    );
  }
  if (status === 'PENDING_PAYMENT') {
    return (
      <ConfirmButton
        label="Cancel order"
        title="Cancel this order?"
        body="The customer can no longer pay it; order.cancelled is sent to your endpoints."
        confirmLabel="Cancel order"
        onConfirm={async () => {
          const res = await cancelOrderAction(id);
          if (!res.ok) return toast(res.error.message, 'error');
          toast('Order cancelled');
          router.refresh();
        }}
      />
    );
  }
  return null;
}
