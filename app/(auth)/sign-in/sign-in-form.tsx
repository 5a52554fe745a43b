'use client';

import { startTransition, useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { SignInInput } from '@/lib/auth/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { signInFormAction, type AuthFormState } from '../actions';

const initial: AuthFormState = { error: null, fields: {} };

/**
 * Posts to a server action: before hydration (or without JavaScript) the browser POSTs the form
 * and the server answers with a redirect or the page with the error; credentials never reach a URL.
 * Once hydrated, fields are checked first and the password stays filled while a code is asked for.
 */
export function SignInForm() {
  const [state, formAction, busy] = useActionState(signInFormAction, initial);
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? state.fields;
  const needsCode = Boolean(state.needsCode);

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const parsed = SignInInput.safeParse({ email: f.get('email'), password: f.get('password'), code: needsCode ? f.get('code') : undefined });
    if (!parsed.success) return setClientErrors(zodFieldErrors(parsed.error));
    setClientErrors(null);
    startTransition(() => formAction(f));
  }

  return (
    <form action={formAction} onSubmit={onSubmit} noValidate className="mt-6 space-y-2">
      <FormError message={clientErrors ? null : state.error} />
      <Field id="email" label="Email" error={errors.email}>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.values?.email}
          className={inputClass}
          aria-invalid={!!errors.email}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password}>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
          aria-invalid={!!errors.password}
        />
      </Field>
      {needsCode && (
        <Field id="code" label="Authentication code" error={errors.code} hint="6-digit code from your app, or a recovery code.">
          <input id="code" name="code" inputMode="numeric" autoComplete="one-time-code" autoFocus className={inputClass} />
        </Field>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Signing in…' : needsCode ? 'Verify' : 'Sign in'}
      </Button>
    </form>
  );
}
