import Link from 'next/link';
import { isStaffRole } from '@/lib/users/roles';
import { redirect } from 'next/navigation';
import { getSignedInStaff } from '@/lib/console/context';
import { getDashboardContext } from '@/lib/dashboard/context';
import { env } from '@/lib/env';
import { SignInForm } from './sign-in-form';

// Reads configuration and the session at request time, never at build time.
export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function SignInPage() {
  if (await getDashboardContext()) redirect('/dashboard');
  // Support staff have no dashboard: a signed-in one goes back to the console.
  if (isStaffRole((await getSignedInStaff())?.user.role ?? '')) redirect('/console');
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Sign in to your account</h1>
      <SignInForm />
      {env().SIGNUP_ENABLED && (
        <p className="mt-6 text-center text-sm text-slate-500">
          New here?{' '}
          <Link href="/sign-up" className="font-medium text-indigo-600 hover:underline">
            Create an account
          </Link>
        </p>
      )}
    </>
  );
}
