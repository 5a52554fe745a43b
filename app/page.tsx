import Link from 'next/link';
import { PRODUCT_NAME, railsSentence } from '@/lib/config/product';
import { parseRails } from '@/lib/config/rails';
import { env } from '@/lib/env';

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold">{PRODUCT_NAME}</h1>
      <p className="mt-4 text-slate-600">
        {/* The rails this deployment enables (RAILS), never one it does not. */}
        Accept {railsSentence(parseRails(env().RAILS))}: invoices with unique deposit addresses, a ledger-backed balance, withdrawals and signed
        webhooks.
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
