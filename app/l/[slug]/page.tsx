import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { railLabel } from '@/lib/checkout/network-label';
import { getDb } from '@/lib/db';
import { getPublicLink } from '@/lib/payment-links/get-public-link';
import { PayForm } from './pay-form';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { robots: { index: false } };

const CLOSED: Record<string, string> = {
  disabled: 'This payment link is no longer taking payments.',
  expired: 'This payment link has expired.',
  sold_out: 'This payment link is sold out (every place is taken or held by a payer who has not paid yet).',
};

/** A payment link's public page: each payer who presses Pay gets an invoice of their own and goes to its checkout. */
export default async function PaymentLinkPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const found = await getPublicLink(await getDb(), slug);
  if (!found) notFound();
  const { link, merchant, mode } = found;
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      {mode === 'test' ? (
        <div className="mb-4 rounded-md bg-amber-100 px-3 py-1.5 text-center text-xs font-semibold uppercase tracking-wide text-amber-900">
          Test mode: no real funds
        </div>
      ) : null}
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{merchant}</p>
        <h1 className="mt-1 text-2xl font-semibold">{link.name}</h1>
        {link.description ? <p className="mt-2 text-sm text-slate-600">{link.description}</p> : null}
        {link.amount ? (
          <p className="mt-4 text-3xl font-semibold tabular-nums" data-testid="link-amount">
            {link.amount} {link.currency}
          </p>
        ) : null}
        {link.currency !== link.token ? (
          <p className="mt-1 text-xs text-slate-500">Paid in {link.token} at the rate locked when your invoice is created.</p>
        ) : null}
        {link.status === 'active' ? (
          <PayForm
            slug={slug}
            currency={link.currency}
            token={link.token}
            bounds={link.amount ? null : { min: link.minAmount!, max: link.maxAmount! }}
          />
        ) : (
          <p role="status" data-testid="link-closed" className="mt-6 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
            {CLOSED[link.status]}
          </p>
        )}
        <p className="mt-4 text-xs text-slate-500" data-testid="link-rail">
          {railLabel(link.chain, link.token)}.
        </p>
      </div>
    </main>
  );
}
