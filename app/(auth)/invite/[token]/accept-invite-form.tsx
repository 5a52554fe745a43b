'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { AcceptInvitationInput } from '@/lib/auth/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { acceptInvitationAction } from '../../actions';

export function AcceptInviteForm({ token }: { token: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      noValidate
      className="mt-6 space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const input = { token, password: String(new FormData(e.currentTarget).get('password') ?? '') };
        const parsed = AcceptInvitationInput.safeParse(input);
        if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
        setErrors({});
        setBusy(true);
        const res = await acceptInvitationAction(input);
        setBusy(false);
        if (!res.ok) return setFormError(res.error.message);
        router.replace('/dashboard');
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="password" label="Password" error={errors.password} hint="At least 10 characters.">
        <input id="password" name="password" type="password" autoComplete="new-password" className={inputClass} aria-invalid={!!errors.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Joining…' : 'Join and sign in'}
      </Button>
    </form>
  );
}
