'use client';

import { startTransition, useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { SignUpInput } from '@/lib/auth/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { signUpFormAction, type AuthFormState } from '../actions';

const initial: AuthFormState = { error: null, fields: {} };

/** Posts to a server action, so it works before hydration too (see SignInForm). */
export function SignUpForm() {
  const [state, formAction, busy] = useActionState(signUpFormAction, initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? state.fields;

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const parsed = SignUpInput.safeParse({ businessName: f.get('businessName'), email: f.get('email'), password: f.get('password') });
    if (!parsed.success) return setClientErrors(zodFieldErrors(parsed.error));
    setClientErrors(null);
    startTransition(() => formAction(f));
  }

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="mt-6 space-y-2">
      <FormError message={clientErrors ? null : state.error} />
      <Field id="businessName" label="Business name" error={errors.businessName}>
        <input
          id="businessName"
          name="businessName"
          autoComplete="organization"
          defaultValue={state.values?.businessName}
          className={inputClass}
          aria-invalid={!!errors.businessName}
        />
      </Field>
      <Field id="email" label="Email" error={errors.email}>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={state.values?.email}
          className={inputClass}
          aria-invalid={!!errors.email}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password} hint="At least 10 characters.">
        <input id="password" name="password" type="password" autoComplete="new-password" className={inputClass} aria-invalid={!!errors.password} />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating account…' : 'Create account'}
      </Button>
    </form>
  );
}
