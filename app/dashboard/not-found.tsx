import Link from 'next/link';

export default function DashboardNotFound() {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">Not found</h1>
      <p className="mt-1 text-sm text-slate-500">Nothing here in this account and mode. Check the mode switch in the header.</p>
      <Link href="/dashboard" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
        Back to the dashboard
      </Link>
    </div>
  );
}
