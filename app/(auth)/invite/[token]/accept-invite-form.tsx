'use client';

import { startTransition, useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { AcceptInvitationInput } from '@/lib/auth/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { acceptInvitationFormAction, type AuthFormState } from '../../actions';

const initial: AuthFormState = { error: null, fields: {} };

/** Posts to a server action, so it works before hydration too (see SignInForm). */
export function AcceptInviteForm({ token }: { token: string }) {
  const [state, formAction, busy] = useActionState(acceptInvitationFormAction, initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? state.fields;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const parsed = AcceptInvitationInput.safeParse({ token, password: f.get('password') });
    if (!parsed.success) return setClientErrors(zodFieldErrors(parsed.error));
    setClientErrors(null);
    startTransition(() => formAction(f));
  }

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="mt-6 space-y-2">
      <input type="hidden" name="token" value={token} />
      <FormError message={clientErrors ? null : state.error} />
      <Field id="password" label="Password" error={errors.password} hint="At least 10 characters.">
        <input id="password" name="password" type="password" autoComplete="new-password" className={inputClass} aria-invalid={!!errors.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Joining…' : 'Join and sign in'}
      </Button>
    </form>
  );
}
