'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { SignInInput } from '@/lib/auth/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { signInAction } from '../actions';

export function SignInForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const input = { email: String(f.get('email') ?? ''), password: String(f.get('password') ?? ''), code: needsCode ? String(f.get('code') ?? '') : undefined };
    const parsed = SignInInput.safeParse(input);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setFormError(null);
    setBusy(true);
    const res = await signInAction(input);
    setBusy(false);
    if (res.ok) {
      router.replace('/dashboard');
      router.refresh();
      return;
    }
    if (res.code === 'totp_required') {
      setNeedsCode(true);
      setFormError(needsCode ? res.message : null);
      return;
    }
    setFormError(res.message);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-2">
      <FormError message={formError} />
      <Field id="email" label="Email" error={errors.email}>
        <input id="email" name="email" type="email" autoComplete="email" required className={inputClass} aria-invalid={!!errors.email} />
      </Field>
      <Field id="password" label="Password" error={errors.password}>
        <input id="password" name="password" type="password" autoComplete="current-password" required className={inputClass} aria-invalid={!!errors.password} />
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
