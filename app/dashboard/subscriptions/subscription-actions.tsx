'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { cancelSubscriptionAction, sendPortalLinkAction } from './actions';

/** "At period end" (not renewed) or "now" (canceled at once, the customer told); both ask first. */
export function CancelSubscriptionButtons({ id, cancelAtPeriodEnd }: { id: string; cancelAtPeriodEnd: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { run } = useFormSubmit();
  const cancel = async (atPeriodEnd: boolean) => {
    const res = await run(() => cancelSubscriptionAction(id, { atPeriodEnd }));
    if (!res.ok) return toast(res.error.message, 'error');
    toast(atPeriodEnd ? 'The subscription ends at its period end' : 'Subscription canceled');
    router.refresh();
  };
  return (
    <div className="flex flex-wrap gap-2">
      {!cancelAtPeriodEnd && (
        <ConfirmButton
          label="Cancel at period end"
          title="Cancel at the end of this period?"
          body="The subscription runs to the end of the current period and is not renewed."
          confirmLabel="Cancel at period end"
          onConfirm={() => cancel(true)}
        />
      )}
      <ConfirmButton
        label="Cancel now"
        title="Cancel this subscription now?"
        body="It is canceled at once and the customer is e-mailed. Its open invoice stays payable."
        confirmLabel="Cancel now"
        onConfirm={() => cancel(false)}
      />
    </div>
  );
}

/** E-mails the customer a one-time portal link (15 minutes); the link is never shown to the merchant. */
export function SendPortalLinkButton({ customerEmail }: { customerEmail: string }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, run } = useFormSubmit();
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={async () => {
        const res = await run(() => sendPortalLinkAction(customerEmail));
        if (!res.ok) return toast(res.error.message, 'error');
        toast(`Portal link e-mailed to ${customerEmail}`);
        router.refresh();
      }}
    >
      {busy ? 'Sending…' : 'E-mail portal link'}
    </Button>
  );
}
