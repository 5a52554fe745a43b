import Link from 'next/link';
import { redirect } from 'next/navigation';
import { railsSentence } from '@/lib/config/product';
import { parseRails } from '@/lib/config/rails';
import { env } from '@/lib/env';
import { SignUpForm } from './sign-up-form';

// Reads configuration and the session at request time, never at build time.
export const dynamic = 'force-dynamic';
export const metadata = { title: 'Create account' };

export default function SignUpPage() {
  if (!env().SIGNUP_ENABLED) redirect('/sign-in');
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Create your account</h1>
      <p className="mt-1 text-sm text-slate-500">Accept {railsSentence(parseRails(env().RAILS))}. You start in test mode.</p>
      <SignUpForm />
      <p className="mt-6 text-center text-sm text-slate-500">
        Have an account?{' '}
        <Link href="/sign-in" className="font-medium text-indigo-600 hover:underline">
          Sign in
        </Link>
      </p>
    </>
  );
}
