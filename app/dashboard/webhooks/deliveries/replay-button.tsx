'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { replayAction } from '../actions';

/** Sends the event again to this delivery's endpoint as a new delivery (the original stays in the log). */
export function ReplayButton({ eventId, endpointId }: { eventId: string; endpointId: string | null }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, run } = useFormSubmit();
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={async () => {
        const res = await run(() => replayAction(eventId, endpointId ?? undefined));
        if (!res.ok) return toast(res.error.message, 'error');
        toast(`Replay queued (${res.data.deliveryIds.length} deliver${res.data.deliveryIds.length === 1 ? 'y' : 'ies'})`);
        router.refresh();
      }}
    >
      {busy ? 'Replaying…' : 'Replay'}
    </Button>
  );
}
