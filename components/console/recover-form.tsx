'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { recoverEndpointAction } from './actions';

/** Bulk recovery after a tenant's outage: every failed or dead-lettered delivery of the endpoint since the time, once per event. */
export function RecoverForm({ defaultEndpointId }: { defaultEndpointId: string }) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, submit } = useFormSubmit();
  const [result, setResult] = useState<string | null>(null);
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const local = String(f.get('since') ?? '');
        // datetime-local has no zone: the console works in UTC like every time it shows.
        const res = await submit(null, () =>
          recoverEndpointAction({ endpointId: String(f.get('endpointId') ?? ''), since: local ? `${local}:00Z` : '' }),
        );
        if (!res) return;
        const n = res.data.deliveryIds.length;
        setResult(`${n} deliver${n === 1 ? 'y' : 'ies'} queued${res.data.hasMore ? '; more remain, run it again' : ''}.`);
        toast(`Recovery queued ${n} deliver${n === 1 ? 'y' : 'ies'}`);
        router.refresh();
      }}
    >
      <div className="sm:col-span-3">
        <FormError message={error} />
      </div>
      <Field id="recover-endpoint" label="Endpoint id">
        <input id="recover-endpoint" name="endpointId" defaultValue={defaultEndpointId} placeholder="whe_…" required className={inputClass} />
      </Field>
      <Field id="recover-since" label="Since (UTC)">
        <input id="recover-since" name="since" type="datetime-local" required className={inputClass} />
      </Field>
      <Button type="submit" className="sm:mt-6" disabled={busy}>
        {busy ? 'Recovering…' : 'Recover'}
      </Button>
      {result && (
        <p className="text-sm text-slate-700 sm:col-span-3" data-testid="recover-result">
          {result}
        </p>
      )}
    </form>
  );
}
