'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { setTenantStatusAction } from './actions';

/** Suspend (API keys and dashboard actions refused at once) or reactivate, with a reason kept in the audit log. */
export function TenantStatusForm({ tenantId, status }: { tenantId: string; status: 'active' | 'suspended' }) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, submit } = useFormSubmit();
  const next = status === 'active' ? 'suspended' : 'active';
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
      onSubmit={async (e) => {
        e.preventDefault();
        const reason = String(new FormData(e.currentTarget).get('reason') ?? '');
        const res = await submit(null, () => setTenantStatusAction(tenantId, { status: next, reason }));
        if (!res) return;
        toast(next === 'suspended' ? 'Tenant suspended' : 'Tenant reactivated');
        router.refresh();
      }}
    >
      <div className="sm:col-span-2">
        <FormError message={error} />
      </div>
      <Field id="status-reason" label={`Reason to ${next === 'suspended' ? 'suspend' : 'reactivate'}`} hint="Kept in the audit log.">
        <input id="status-reason" name="reason" required minLength={3} className={inputClass} />
      </Field>
      <Button type="submit" variant={next === 'suspended' ? 'danger' : 'primary'} className="sm:mt-6" disabled={busy}>
        {next === 'suspended' ? 'Suspend tenant' : 'Reactivate tenant'}
      </Button>
    </form>
  );
}
