import Link from 'next/link';

export const metadata = { title: 'Forbidden' };

/** Rendered with HTTP 403 by forbidden(): signed in, but not allowed here (e.g. a merchant on /console). */
export default function Forbidden() {
  return (
    <main className="grid min-h-screen place-items-center bg-slate-50 px-6">
      <div className="max-w-md text-center" data-testid="forbidden">
        <p className="text-sm font-semibold text-indigo-600">403</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">You do not have access to this page</h1>
        <p className="mt-2 text-sm text-slate-600">
          The support console is for the gateway&apos;s support staff. Your account can use the merchant dashboard.
        </p>
        <Link href="/dashboard" className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline">
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
