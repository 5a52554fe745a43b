'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { setTenantRailsAction } from './actions';

/** Which of the gateway's rails this account accepts invoices on; BSC USDT is always on (the API's default). */
export function RailsForm({ offered, accepted, canEdit }: { offered: string[]; accepted: string[]; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, run } = useFormSubmit();
  if (offered.length <= 1) return null;
  return (
    <form
      noValidate
      aria-label="Accepted networks and tokens"
      onSubmit={async (e) => {
        e.preventDefault();
        const rails = new FormData(e.currentTarget).getAll('rail').map(String);
        const res = await run(() => setTenantRailsAction({ rails }));
        if (!res.ok) return;
        toast('Accepted networks saved');
        router.refresh();
      }}
    >
      <FormError message={error} />
      <fieldset className="text-sm text-slate-700" disabled={!canEdit}>
        <legend className="font-medium">Networks and tokens you accept</legend>
        <div className="mt-1 grid grid-cols-2 gap-1">
          {offered.map((r) => (
            <label key={r} className="flex items-center gap-2">
              <input type="checkbox" name="rail" value={r} defaultChecked={accepted.includes(r)} disabled={r === 'BSC:USDT'} />
              <span>{r.replace(':', ' ')}</span>
            </label>
          ))}
        </div>
        <p className="mt-1 text-xs text-slate-500">BSC USDT is always accepted. Open invoices keep their network.</p>
      </fieldset>
      {canEdit && (
        <Button type="submit" variant="secondary" className="mt-2" disabled={busy}>
          Save
        </Button>
      )}
    </form>
  );
}
