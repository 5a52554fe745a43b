'use server';

import { AuthError } from 'next-auth';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { acceptInvitation } from '@/lib/auth/invitations';
import { signIn } from '@/lib/auth/next-auth';
import { clientIp } from '@/lib/http/client-ip';
import { issueSignInGrant } from '@/lib/auth/sign-in-grant';
import { signUp } from '@/lib/auth/sign-up';
import { AcceptInvitationInput, SignInInput, SignUpInput } from '@/lib/auth/schemas';
import { runAction } from '@/lib/dashboard/action-result';
import { fieldErrors, zodFieldErrors } from '@/lib/dashboard/form-errors';
import { getDb } from '@/lib/db';
import { log } from '@/lib/log';

type SignInResult = { ok: true } | { ok: false; code: 'invalid' | 'totp_required' | 'throttled' | 'no_tenant'; message: string };

const MESSAGES = {
  invalid: 'Incorrect email, password or code.',
  totp_required: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  no_tenant: 'This account has no merchant account to sign in to.',
} as const;

async function credentialsSignIn(fields: { email: string; password: string; code?: string } | { grant: string }): Promise<SignInResult> {
  try {
    await signIn('credentials', { ...fields, redirect: false });
    return { ok: true };
  } catch (err) {
    if (err instanceof AuthError && err.type !== 'CredentialsSignin') {
      // Anything but a refusal is our failure (database down, bug): say so rather than blaming the password.
      log.error('sign-in failed', { error: (err.cause as { err?: Error } | undefined)?.err?.message ?? err.message });
      return { ok: false, code: 'invalid', message: 'Sign-in is unavailable right now. Try again in a moment.' };
    }
    if (err instanceof AuthError) {
      const code = (err as AuthError & { code?: string }).code ?? 'invalid';
      if (code.startsWith('throttled:')) {
        const s = code.slice('throttled:'.length);
        return { ok: false, code: 'throttled', message: `Too many failed attempts. Try again in ${s} second${s === '1' ? '' : 's'}.` };
      }
      const known = code in MESSAGES ? (code as keyof typeof MESSAGES) : 'invalid';
      return { ok: false, code: known, message: MESSAGES[known] };
    }
    throw err;
  }
}

/**
 * What the sign-in, sign-up and invitation forms get back. The forms post to these actions with
 * useActionState, so they also work before (or without) JavaScript: the browser POSTs the form and
 * the page renders this state; credentials never go into a URL. No password is ever sent back.
 */
export type AuthFormState = {
  error: string | null;
  fields: Record<string, string>;
  needsCode?: boolean;
  /** Non-secret values to show again in a page rendered without JavaScript. */
  values?: { email?: string; businessName?: string };
};

const field = (f: FormData, name: string) => {
  const v = f.get(name);
  return typeof v === 'string' ? v : '';
};

export async function signInFormAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = field(form, 'email');
  const parsed = SignInInput.safeParse({ email, password: field(form, 'password'), code: field(form, 'code') || undefined });
  if (!parsed.success) return { error: null, fields: zodFieldErrors(parsed.error), values: { email } };
  const res = await credentialsSignIn({ ...parsed.data, code: parsed.data.code ?? '' });
  if (res.ok) redirect('/dashboard');
  if (res.code === 'totp_required') {
    // The first refusal only asks for the code; a wrong code says so.
    return { error: form.has('code') ? res.message : null, fields: {}, needsCode: true, values: { email } };
  }
  return { error: res.message, fields: {}, needsCode: form.has('code'), values: { email } };
}

export async function signUpFormAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const input = { businessName: field(form, 'businessName'), email: field(form, 'email'), password: field(form, 'password') };
  const values = { email: input.email, businessName: input.businessName };
  const parsed = SignUpInput.safeParse(input);
  if (!parsed.success) return { error: null, fields: zodFieldErrors(parsed.error), values };
  let grant = '';
  const result = await runAction(async () => {
    const { user } = await signUp(await getDb(), input, { ip: clientIp(await headers()) });
    grant = issueSignInGrant(user.id);
    return null;
  });
  if (!result.ok) return { error: result.error.message, fields: fieldErrors(result.error.details), values };
  // The password was hashed a moment ago: a grant signs the new owner in without a second argon2 run.
  const signedIn = await credentialsSignIn({ grant });
  if (!signedIn.ok) return { error: signedIn.message, fields: {}, values };
  redirect('/dashboard');
}

export async function acceptInvitationFormAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const input = { token: field(form, 'token'), password: field(form, 'password') };
  const parsed = AcceptInvitationInput.safeParse(input);
  if (!parsed.success) return { error: null, fields: zodFieldErrors(parsed.error) };
  let grant = '';
  const result = await runAction(async () => {
    grant = issueSignInGrant((await acceptInvitation(await getDb(), input)).id);
    return null;
  });
  if (!result.ok) return { error: result.error.message, fields: {} };
  const signedIn = await credentialsSignIn({ grant });
  if (!signedIn.ok) return { error: signedIn.message, fields: {} };
  redirect('/dashboard');
}
