import { cookies } from 'next/headers';
import { getDb } from '@/lib/db';
import { REFUND_CLAIM_COOKIE } from '@/lib/http/secret-url-cookie';
import { claimPage } from '@/lib/refunds/claims/claim-page';
import { Time } from '@/components/ui/time';
import { usedClaimPage } from '@/lib/refunds/claims/used-claim-page';
import { ClaimForm } from './claim-form';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Refund', robots: { index: false } };

/**
 * A merchant's one-time refund claim link (issue 30 §1). A used link shows the request it made and its status
 * (issue 45, used-claim-page.ts); anything else (unknown, canceled, expired) shows the same sentence, so the page
 * tells a guesser nothing. The link is `/refund-claim/<secret>`: the proxy answers it with a redirect here and the
 * secret in a cookie scoped to /refund-claim (lib/http/secret-url-cookie.ts), so this page's own requests and their
 * Referer never carry it.
 */
export default async function RefundClaimPage() {
  const token = (await cookies()).get(REFUND_CLAIM_COOKIE)?.value ?? '';
  const db = await getDb();
  const claim = token ? await claimPage(db, token) : null;
  // A used link shows the request it made (the payer reloading after submitting); anything else, the one sentence.
  const used = claim || !token ? null : await usedClaimPage(db, token);
  return (
    <main className="mx-auto min-h-screen w-full max-w-md px-4 py-6 sm:py-12">
      <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm" data-testid="refund-claim">
        {claim ? (
          <>
            <h1 className="text-base font-semibold text-slate-900">Refund from {claim.tenantName}</h1>
            <p>
              {claim.tenantName} will refund{' '}
              <strong className="tabular-nums" data-testid="claim-amount">
                {claim.amount} {claim.token}
              </strong>{' '}
              to you, in <span data-testid="claim-rail">{claim.rail}</span>. Enter the address to send it to.
            </p>
            <p className="text-xs text-slate-600" data-testid="claim-network-fee">
              {/^0(\.0*)?$/.test(claim.networkFee) || claim.networkFeePaidBy === 'merchant' ? (
                <>No fee is taken: you receive the full amount.</>
              ) : (
                <>
                  Network fee {claim.networkFee} {claim.token}, taken from the refund: you receive{' '}
                  <strong className="tabular-nums">
                    {claim.youReceive} {claim.token}
                  </strong>
                  .
                </>
              )}
            </p>
            <ClaimForm token={token} claim={claim} />
          </>
        ) : used ? (
          <>
            <h1 className="text-base font-semibold text-slate-900">Refund from {used.tenantName}</h1>
            <p data-testid="claim-used">
              You asked for{' '}
              <strong className="tabular-nums">
                {used.amount} {used.token}
              </strong>{' '}
              to be sent to <span className="font-mono">{used.address}</span> on <Time iso={used.requestedAt} />.
            </p>
            <p className="font-medium text-slate-900" data-testid="claim-request-status">
              {used.status}
            </p>
          </>
        ) : (
          <>
            <h1 className="text-base font-semibold text-slate-900">Refund</h1>
            <p data-testid="claim-invalid">This refund link is no longer valid. If you still expect a refund, contact the merchant.</p>
          </>
        )}
      </section>
    </main>
  );
}
