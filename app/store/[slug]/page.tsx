import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db';
import { railLabel } from '@/lib/checkout/network-label';
import { getStore } from '@/lib/storefront/get-store';
import { STORE_RAIL } from '@/lib/storefront/store-currency';
import { BuyForm } from './buy-form';

export const dynamic = 'force-dynamic';

/** Public store of a tenant: live products, or test products with ?mode=test (clearly marked). */
export default async function StorePage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<{ mode?: string }> }) {
  const { slug } = await params;
  const mode = (await searchParams).mode === 'test' ? 'test' : 'live';
  const store = await getStore(await getDb(), slug, mode);
  if (!store) notFound();
  return (
    <main className="mx-auto max-w-5xl px-4 py-8">
      {mode === 'test' ? (
        <div className="mb-4 rounded-md bg-amber-100 px-3 py-1.5 text-center text-xs font-semibold uppercase tracking-wide text-amber-900">
          Test mode: no real funds
        </div>
      ) : null}
      <h1 className="text-2xl font-semibold">{store.name}</h1>
      <p className="mt-1 text-sm text-slate-500">Pay with {railLabel(STORE_RAIL.chain, STORE_RAIL.token)}.</p>
      {store.products.length === 0 ? (
        <p className="mt-10 text-slate-500">No products for sale yet.</p>
      ) : (
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {store.products.map((p) => (
            <li key={p.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              {p.imageUrl ? (
                // eslint-disable-next-line @next/next/no-img-element
                <img src={p.imageUrl} alt="" width={320} height={180} className="mb-3 aspect-video w-full rounded-md object-cover" />
              ) : null}
              <h2 className="font-medium">{p.name}</h2>
              {p.description ? <p className="mt-1 text-sm text-slate-600">{p.description}</p> : null}
              <p className="mt-2 text-lg font-semibold tabular-nums">{p.price} USDT</p>
              <BuyForm slug={slug} mode={mode} productId={p.id} productName={p.name} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
