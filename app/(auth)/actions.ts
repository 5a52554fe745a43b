'use server';

import { AuthError } from 'next-auth';
import { redirect } from 'next/navigation';
import { acceptInvitation } from '@/lib/auth/invitations';
import { signIn, signOut } from '@/lib/auth/next-auth';
import { revokeSession } from '@/lib/auth/sessions';
import { signUp } from '@/lib/auth/sign-up';
import { runAction, type ActionResult } from '@/lib/dashboard/action-result';
import { getDashboardContext } from '@/lib/dashboard/context';
import { getDb } from '@/lib/db';
import { log } from '@/lib/log';

type SignInResult = { ok: true } | { ok: false; code: 'invalid' | 'totp_required' | 'throttled' | 'no_tenant'; message: string };

const MESSAGES = {
  invalid: 'Incorrect email, password or code.',
  totp_required: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  no_tenant: 'This account has no merchant account to sign in to.',
} as const;

async function credentialsSignIn(fields: { email: string; password: string; code?: string }): Promise<SignInResult> {
  try {
    await signIn('credentials', { ...fields, code: fields.code ?? '', redirect: false });
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

export async function signInAction(input: { email: string; password: string; code?: string }): Promise<SignInResult> {
  return credentialsSignIn(input);
}

export async function signUpAction(input: { businessName: string; email: string; password: string }): Promise<ActionResult<null>> {
  const result = await runAction(async () => {
    await signUp(await getDb(), input);
    return null;
  });
  if (!result.ok) return result;
  const signedIn = await credentialsSignIn({ email: input.email, password: input.password });
  if (!signedIn.ok) return { ok: false, error: { code: signedIn.code, message: signedIn.message } };
  return result;
}

export async function acceptInvitationAction(input: { token: string; password: string }): Promise<ActionResult<null>> {
  let email = '';
  const result = await runAction(async () => {
    email = (await acceptInvitation(await getDb(), input)).email;
    return null;
  });
  if (!result.ok) return result;
  const signedIn = await credentialsSignIn({ email, password: input.password });
  if (!signedIn.ok) return { ok: false, error: { code: signedIn.code, message: signedIn.message } };
  return result;
}

export async function signOutAction(): Promise<void> {
  const ctx = await getDashboardContext();
  // The row is revoked too, so a copied cookie stops working at once.
  if (ctx) await revokeSession(ctx.db, ctx.sessionId);
  await signOut({ redirect: false });
  redirect('/sign-in');
}
