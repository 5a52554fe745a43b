'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { SignUpInput } from '@/lib/auth/schemas';
import { fieldErrors, zodFieldErrors } from '@/lib/dashboard/form-errors';
import { signUpAction } from '../actions';

export function SignUpForm() {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const input = { businessName: String(f.get('businessName') ?? ''), email: String(f.get('email') ?? ''), password: String(f.get('password') ?? '') };
    const parsed = SignUpInput.safeParse(input);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setFormError(null);
    setBusy(true);
    const res = await signUpAction(input);
    setBusy(false);
    if (res.ok) {
      router.replace('/dashboard');
      router.refresh();
      return;
    }
    setErrors(fieldErrors(res.error.details));
    setFormError(res.error.message);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-2">
      <FormError message={formError} />
      <Field id="businessName" label="Business name" error={errors.businessName}>
        <input id="businessName" name="businessName" autoComplete="organization" className={inputClass} aria-invalid={!!errors.businessName} />
      </Field>
      <Field id="email" label="Email" error={errors.email}>
        <input id="email" name="email" type="email" autoComplete="email" className={inputClass} aria-invalid={!!errors.email} />
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
