import { cookies } from 'next/headers';
import { Time } from '@/components/ui/time';
import { getDb } from '@/lib/db';
import { portalSession } from '@/lib/portal/portal-session';
import { portalNetworks } from '@/lib/portal/portal-networks';
import { portalPayLinks } from '@/lib/portal/portal-pay-links';
import { portalSubscriptions } from '@/lib/portal/portal-subscriptions';
import { PORTAL_COOKIE } from '@/lib/portal/portal-token';
import { PortalCollection } from '@/components/portal/portal-collection';
import {
  cancelAtPeriodEndAction,
  permitOfferPortalAction,
  setUpByPermitPortalAction,
  setUpCollectionPortalAction,
  turnOffCollectionAction,
} from './actions';
import { ChangeRailForm } from './change-rail-form';
import { PayLink } from './pay-link';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Your subscriptions', robots: { index: false } };

const STATUS: Record<string, string> = { trialing: 'Trial', active: 'Active', past_due: 'Past due', canceled: 'Canceled' };

/**
 * The customer portal (issue 48 §1), reached through a one-time link (app/portal/[token]/route.ts) that leaves the
 * session secret in a cookie scoped to /portal. Lists the customer's subscriptions at this merchant and mode and
 * cancels one at its period end, and turns each one's automatic collection off or on. Without a valid session: one sentence, whatever the reason.
 */
export default async function PortalPage() {
  const db = await getDb();
  const customer = await portalSession(db, (await cookies()).get(PORTAL_COOKIE)?.value);
  const subs = customer ? await portalSubscriptions(db, customer) : [];
  const [networks, payLinks] = customer
    ? await Promise.all([portalNetworks(db, customer), portalPayLinks(db, subs)])
    : [{}, new Map<string, string>()];
  return (
    <main className="mx-auto min-h-screen w-full max-w-xl px-4 py-6 sm:py-12">
      <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm" data-testid="portal">
        {!customer ? (
          <>
            <h1 className="text-base font-semibold text-slate-900">Your subscriptions</h1>
            <p data-testid="portal-expired">This link has expired or was already used; ask the merchant for a new one.</p>
          </>
        ) : (
          <>
            <h1 className="text-base font-semibold text-slate-900">Your subscriptions with {customer.merchantName}</h1>
            <p className="text-xs text-slate-600">{customer.customerEmail}</p>
            {subs.length === 0 ? (
              <p data-testid="portal-empty">You have no subscriptions here.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {subs.map((s) => (
                  <li key={s.id} className="space-y-1 py-3" data-testid="portal-subscription">
                    <div className="flex items-baseline justify-between gap-2">
                      <span className="font-medium text-slate-900">{s.planName}</span>
                      <span className="tabular-nums">
                        {s.amount} {s.priceCurrency ? `${s.priceCurrency} in ${s.token}` : s.token} on {s.chain}
                      </span>
                    </div>
                    <div className="text-xs text-slate-600">
                      <span data-testid="portal-status">{STATUS[s.status] ?? s.status}</span>
                      {s.status !== 'canceled' && (
                        <>
                          {' · '}
                          {s.cancelAtPeriodEnd ? 'Ends' : 'Renews'} <Time iso={s.currentPeriodEnd} />
                        </>
                      )}
                    </div>
                    {payLinks.has(s.id) && <PayLink href={payLinks.get(s.id)!} />}
                    {s.status !== 'canceled' && (networks[s.token]?.length ?? 0) > 1 && (
                      <ChangeRailForm subscriptionId={s.id} token={s.token} chain={s.chain} networks={networks[s.token]!} />
                    )}
                    {s.collection ? (
                      <PortalCollection
                        offer={s.collection}
                        turnOff={turnOffCollectionAction}
                        setUp={setUpCollectionPortalAction}
                        permit={{ offer: permitOfferPortalAction, submit: setUpByPermitPortalAction }}
                      />
                    ) : null}
                    {s.status !== 'canceled' &&
                      (s.cancelAtPeriodEnd ? (
                        <p className="text-xs font-medium text-slate-900" data-testid="portal-cancel-scheduled">
                          Cancels at the end of this period.
                        </p>
                      ) : (
                        <form action={cancelAtPeriodEndAction}>
                          <input type="hidden" name="subscriptionId" value={s.id} />
                          <button
                            type="submit"
                            className="rounded-md border border-slate-300 px-3 py-1.5 text-xs font-medium text-slate-900 hover:bg-slate-50"
                            data-testid="portal-cancel"
                          >
                            Cancel at period end
                          </button>
                        </form>
                      ))}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
    </main>
  );
}
