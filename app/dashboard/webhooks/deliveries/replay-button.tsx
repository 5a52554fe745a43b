'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { Time } from '@/components/ui/time';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { replayAction } from '../actions';

/**
 * Sends the event again to this delivery's endpoint as a new delivery (the original stays in the log), after a
 * confirmation like the console's; one already replayed (from any screen) asks "already replayed at …, replay again?".
 */
export function ReplayButton({
  eventId,
  eventType,
  endpointId,
  target,
  replayedAt,
}: {
  eventId: string;
  eventType: string;
  endpointId: string | null;
  /** The endpoint's URL (or the postBackUrl) the replay goes to. */
  target: string;
  /** When this delivery's event was last replayed to the same target (lib/dashboard/delivery-replays.ts). */
  replayedAt?: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const { busy, run, formError, setFormError } = useFormSubmit();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        disabled={busy}
        onClick={() => {
          setFormError(null);
          setOpen(true);
        }}
      >
        {replayedAt ? 'Replay again' : 'Replay'}
      </Button>
      <ConfirmStep
        open={open}
        title={replayedAt ? 'Already replayed: replay again?' : 'Confirm replay'}
        confirmLabel={replayedAt ? 'Replay again' : 'Replay'}
        busy={busy}
        error={formError}
        onCancel={() => setOpen(false)}
        onConfirm={async () => {
          const res = await run(() => replayAction(eventId, endpointId ?? undefined));
          if (!res.ok) return;
          setOpen(false);
          toast(`Replay queued (${res.data.deliveryIds.length} deliver${res.data.deliveryIds.length === 1 ? 'y' : 'ies'})`);
          router.refresh();
        }}
        rows={[
          { label: 'Event', value: `${eventType} · ${eventId}`, mono: true },
          { label: 'To', value: target, mono: true },
          ...(replayedAt ? [{ label: 'Already replayed', value: <Time iso={replayedAt} withSeconds /> }] : []),
        ]}
        note={
          replayedAt
            ? 'This event was already replayed to this endpoint at the time above: your endpoint receives it once more (same X-Webhook-Id).'
            : 'Your endpoint receives the event again as a new delivery (same X-Webhook-Id).'
        }
      />
    </>
  );
}
