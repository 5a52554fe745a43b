'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { replayAction } from '../actions';

/** Sends the event again to this delivery's endpoint as a new delivery (the original stays in the log). */
export function ReplayButton({ eventId, endpointId }: { eventId: string; endpointId: string | null }) {
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const res = await replayAction(eventId, endpointId ?? undefined);
        setBusy(false);
        if (!res.ok) return toast(res.error.message, 'error');
        toast(`Replay queued (${res.data.deliveryIds.length} deliver${res.data.deliveryIds.length === 1 ? 'y' : 'ies'})`);
        router.refresh();
      }}
    >
      {busy ? 'Replaying…' : 'Replay'}
    </Button>
  );
}
