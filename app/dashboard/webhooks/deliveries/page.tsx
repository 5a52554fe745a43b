import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { Card, EmptyState, PageHeader } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { Time } from '@/components/ui/time';
import { DELIVERY_STATUSES } from '@/db/schema/webhooks';
import { requireContext } from '@/lib/dashboard/context';
import { attemptRequestHeaders, deliveryRequestBodies, requestKey, type DeliveryRequest } from '@/lib/dashboard/delivery-requests';
import { can } from '@/lib/dashboard/permissions';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '@/lib/events/types';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { ListDeliveriesQuery } from '@/lib/webhooks/schemas';
import { deliveryReplays } from '@/lib/dashboard/delivery-replays';
import { ReplayButton } from './replay-button';

export const metadata = { title: 'Webhook deliveries' };

const pretty = (body: string | undefined) => {
  if (!body) return '(event not found)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireContext();
  const sp = await searchParams;
  const raw = {
    page: sp.page,
    endpointId: sp.endpointId || undefined,
    eventType: sp.eventType || undefined,
    status: sp.status || undefined,
    eventId: sp.eventId || undefined,
  };
  const parsed = ListDeliveriesQuery.safeParse(raw);
  const q = parsed.success ? parsed.data : ListDeliveriesQuery.parse({});
  const [{ data, meta }, endpoints, tenant] = await Promise.all([
    listWebhookDeliveries(ctx.db, ctx.owner, q),
    listWebhookEndpoints(ctx.db, ctx.owner),
    getTenantOrThrow(ctx.db, ctx.tenant.id),
  ]);
  const versionOf = new Map(endpoints.data.map((e) => [e.id, e.apiVersion ?? tenant.apiVersion]));
  // The body as the last attempt sent it (in the version it recorded); before any attempt, as the next one will.
  const requestOf = (d: (typeof data)[number]): DeliveryRequest => ({
    eventId: d.eventId,
    apiVersion: d.attempts.length
      ? d.attempts[d.attempts.length - 1]!.apiVersion
      : ((d.endpointId && versionOf.get(d.endpointId)) ?? tenant.apiVersion),
  });
  const [bodies, replays] = await Promise.all([
    deliveryRequestBodies(ctx.db, ctx.owner, data.map(requestOf)),
    deliveryReplays(
      ctx.db,
      ctx.owner,
      data.map((d) => d.id),
    ),
  ]);
  const urlOf = new Map(endpoints.data.map((e) => [e.id, e.url]));
  const canReplay = can(ctx.user.role, 'webhooks:manage');
  const params = { endpointId: q.endpointId, eventType: q.eventType, status: q.status, eventId: q.eventId };
  const deadLetter = q.status === 'DEAD_LETTER';
  return (
    <>
      <PageHeader title="Webhook deliveries" description="Every attempt to deliver an event, with the request sent and the response received." />
      <div className="mb-4 flex gap-1 border-b border-slate-200" role="tablist" aria-label="Delivery views">
        <Link
          role="tab"
          aria-selected={!deadLetter}
          href="/dashboard/webhooks/deliveries"
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${!deadLetter ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
        >
          All deliveries
        </Link>
        <Link
          role="tab"
          aria-selected={deadLetter}
          href="/dashboard/webhooks/deliveries?status=DEAD_LETTER"
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${deadLetter ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
        >
          Dead letter
        </Link>
      </div>
      <Card className="mb-4">
        <form method="get" className="grid grid-cols-1 items-end gap-3 sm:grid-cols-4">
          <div>
            <label htmlFor="endpointId" className="mb-1 block text-xs font-medium text-slate-600">
              Endpoint
            </label>
            <select id="endpointId" name="endpointId" defaultValue={q.endpointId ?? ''} className={inputClass}>
              <option value="">All endpoints</option>
              {endpoints.data.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.url}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="eventType" className="mb-1 block text-xs font-medium text-slate-600">
              Event type
            </label>
            <select id="eventType" name="eventType" defaultValue={q.eventType ?? ''} className={inputClass}>
              <option value="">All types</option>
              {[...EVENT_TYPES, TEST_EVENT_TYPE].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="dstatus" className="mb-1 block text-xs font-medium text-slate-600">
              Status
            </label>
            <select id="dstatus" name="status" defaultValue={q.status ?? ''} className={inputClass}>
              <option value="">Any status</option>
              {DELIVERY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.replace('_', ' ').toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit" className={buttonClass('primary')}>
              Filter
            </button>
          </div>
        </form>
      </Card>
      <Card>
        <div className="-m-5">
          {data.length === 0 ? (
            <EmptyState title={deadLetter ? 'Nothing in the dead letter queue' : 'No deliveries match'}>
              {deadLetter ? 'Deliveries land here after their last retry fails.' : 'Events are delivered to your endpoints as they happen.'}
            </EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.map((d) => (
                <li key={d.id} data-delivery-id={d.id} data-event-type={d.eventType}>
                  <details className="group">
                    <summary className="flex cursor-pointer list-none flex-wrap items-center gap-3 px-5 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600">
                      <span className="w-28">
                        <StatusBadge status={d.status} />
                      </span>
                      <span className="w-52 truncate font-mono text-xs text-slate-900">{d.eventType}</span>
                      <span className="min-w-0 flex-1 truncate text-xs text-slate-500">
                        {d.endpointId ? (urlOf.get(d.endpointId) ?? d.endpointId) : d.postBackUrl}
                      </span>
                      <span className="w-24 text-xs text-slate-500">
                        {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'}
                        {replays[d.id] ? (
                          <span className="block text-indigo-700" data-testid="replayed">
                            replayed
                          </span>
                        ) : null}
                      </span>
                      <span className="w-40 text-xs text-slate-500">
                        <Time iso={d.createdAt} withSeconds />
                      </span>
                    </summary>
                    <div className="space-y-3 bg-slate-50 px-5 py-4 text-sm">
                      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
                        <span>
                          Delivery <span className="font-mono">{d.id}</span> · event <span className="font-mono">{d.eventId}</span>
                          {d.replayOf ? (
                            <>
                              {' '}
                              · replay of <span className="font-mono">{d.replayOf}</span>
                            </>
                          ) : null}
                          {d.nextAttemptAt ? (
                            <>
                              {' '}
                              · next attempt <Time iso={d.nextAttemptAt} withSeconds />
                            </>
                          ) : null}
                        </span>
                        {canReplay && d.eventType !== TEST_EVENT_TYPE && (
                          <ReplayButton
                            eventId={d.eventId}
                            eventType={d.eventType}
                            endpointId={d.endpointId}
                            target={d.endpointId ? (urlOf.get(d.endpointId) ?? d.endpointId) : (d.postBackUrl ?? '')}
                            replayedAt={replays[d.id]}
                          />
                        )}
                      </div>
                      <div>
                        <p className="mb-1 text-xs font-semibold uppercase text-slate-500">Request body</p>
                        <pre className="max-h-56 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs text-slate-100">
                          {pretty(bodies.get(requestKey(requestOf(d))))}
                        </pre>
                      </div>
                      {d.attempts.length === 0 && <p className="text-xs text-slate-500">No attempt yet{d.lastError ? ` (${d.lastError})` : ''}.</p>}
                      {d.attempts.map((a) => (
                        <div key={a.number} className="rounded border border-slate-200 bg-white p-3" data-attempt={a.number}>
                          <p className="text-xs font-medium text-slate-700">
                            Attempt {a.number} · <Time iso={a.attemptedAt} withSeconds /> ·{' '}
                            {a.responseStatus !== null ? `HTTP ${a.responseStatus}` : (a.error ?? 'no response')} · {a.durationMs} ms
                          </p>
                          <p className="mt-1 truncate font-mono text-xs text-slate-500">POST {a.url}</p>
                          <pre className="mt-2 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs text-slate-700">
                            {Object.entries(attemptRequestHeaders(d.eventId, ctx.tenant.id, a.attemptedAt))
                              .map(([k, v]) => `${k}: ${v}`)
                              .join('\n')}
                          </pre>
                          <p className="mt-2 text-xs font-semibold uppercase text-slate-500">
                            Response{a.error && a.responseStatus !== null ? ` · ${a.error}` : ''}
                          </p>
                          <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs text-slate-700">
                            {a.responseBody?.slice(0, 1000) || '(empty)'}
                          </pre>
                        </div>
                      ))}
                    </div>
                  </details>
                </li>
              ))}
            </ul>
          )}
          <Pagination basePath="/dashboard/webhooks/deliveries" params={params} page={meta.page} lastPage={meta.lastPage} total={meta.total} />
        </div>
      </Card>
    </>
  );
}
