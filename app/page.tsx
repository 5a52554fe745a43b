import Link from 'next/link';

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold">USDT Gateway</h1>
      <p className="mt-4 text-slate-600">
        Accept USDT BEP-20 on BNB Smart Chain: invoices with unique deposit addresses, a ledger-backed balance, withdrawals and signed webhooks.
      </p>
      <div className="mt-8 flex gap-4">
        <Link className="rounded-md bg-indigo-600 px-4 py-2 text-white" href="/dashboard">
          Dashboard
        </Link>
        <Link className="rounded-md bg-slate-900 px-4 py-2 text-white" href="/docs">
          API reference
        </Link>
        <a className="rounded-md border border-slate-300 px-4 py-2" href="/v1/openapi.json">
          OpenAPI document
        </a>
      </div>
    </main>
  );
}
