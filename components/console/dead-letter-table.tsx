'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { formatTime } from '@/components/ui/time';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { replayDeadLettersAction } from './actions';
import type { ReplayOutcome } from '@/lib/console/replay-dead-letters';
import { ReplayOutcomes } from './replay-outcomes';
import { ScrollTable } from '@/components/ui/scroll-hint';

export interface DeadLetterRow {
  id: string;
  tenantId: string;
  tenantName: string;
  mode: string;
  eventId: string;
  eventType: string;
  endpointId: string | null;
  endpointUrl: string | null;
  postBack: boolean;
  attemptCount: number;
  lastError: string | null;
  deadAt: string;
  replayId: string | null;
  replayStatus: string | null;
}

// Fixed widths: ids and texts wrap inside their column instead of widening the table.
const WRAP = 'whitespace-normal wrap-anywhere';
const ID = `${WRAP} w-32 font-mono text-xs`;

export function DeadLetterTable({ rows }: { rows: DeadLetterRow[] }) {
  const router = useRouter();
  const toast = useToast();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const { busy, run } = useFormSubmit();
  const [outcomes, setOutcomes] = useState<ReplayOutcome[]>([]);
  // The deliveries a Replay click picked, waiting for the confirm click (a replay sends to merchants' endpoints again).
  const [pending, setPending] = useState<string[] | null>(null);
  const open = rows.filter((r) => !r.replayId);
  const picked = rows.filter((r) => pending?.includes(r.id));
  const distinct = (xs: string[]) => [...new Set(xs)].join(', ');

  async function replay(ids: string[]) {
    const res = await run(() => replayDeadLettersAction({ deliveryIds: ids }));
    setPending(null);
    if (!res.ok) return toast(res.error.message, 'error');
    const ok = res.data.filter((o) => o.ok).length;
    toast(`${ok} of ${res.data.length} replayed`, ok === res.data.length ? 'success' : 'error');
    setOutcomes(res.data);
    setSelected(new Set());
    router.refresh();
  }

  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <>
      <ReplayOutcomes outcomes={outcomes} />
      <ConfirmStep
        open={pending !== null}
        title="Confirm replay"
        confirmLabel={`Replay ${picked.length === 1 ? 'it' : `${picked.length} deliveries`}`}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && replay(pending)}
        rows={[
          { label: 'Deliveries', value: String(picked.length) },
          { label: 'Events', value: distinct(picked.map((r) => r.eventType)) },
          { label: 'Tenants', value: distinct(picked.map((r) => `${r.tenantName} (${r.mode})`)) },
          { label: 'Sent to', value: distinct(picked.map((r) => (r.postBack ? 'postBackUrl' : (r.endpointUrl ?? '—')))), mono: true },
        ]}
        note="Each is sent again as a new delivery with the same event id; the merchant's endpoint sees it once more. Nothing moves on chain."
      />
      <div className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <div className="flex items-center justify-between gap-4 border-b border-slate-100 px-4 py-2">
          <p className="text-sm text-slate-600">
            {rows.length} shown · {selected.size} selected
          </p>
          <Button size="sm" disabled={busy || selected.size === 0} onClick={() => setPending([...selected])}>
            {busy ? 'Replaying…' : `Replay selected (${selected.size})`}
          </Button>
        </div>
        {rows.length === 0 ? (
          <EmptyState title="No dead letters match these filters" />
        ) : (
          <ScrollTable>
            {/* Ids wrap at fixed widths and the padding is tighter, so all eight columns fit the console's 1280 px width. */}
            <table className={`${tableClass} [&_td]:px-3 [&_th]:px-3`}>
              <thead>
                <tr>
                  <th className={thClass}>
                    <input
                      type="checkbox"
                      aria-label="Select all not yet replayed"
                      checked={open.length > 0 && open.every((r) => selected.has(r.id))}
                      onChange={(e) => setSelected(e.target.checked ? new Set(open.map((r) => r.id)) : new Set())}
                    />
                  </th>
                  <th className={thClass}>Delivery</th>
                  <th className={thClass}>Tenant</th>
                  <th className={thClass}>Event</th>
                  <th className={thClass}>Target</th>
                  <th className={thClass}>Last error</th>
                  <th className={thClass}>Dead since</th>
                  <th className={thClass}>Replay</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} data-delivery-id={r.id} data-event-type={r.eventType}>
                    <td className={tdClass}>
                      {!r.replayId && (
                        <input type="checkbox" aria-label={`Select ${r.id}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
                      )}
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>
                      <div className={ID}>{r.id}</div>
                      <div className="text-slate-400">
                        {r.attemptCount} attempt{r.attemptCount === 1 ? '' : 's'}
                      </div>
                    </td>
                    <td className={tdClass}>
                      <div className={`${WRAP} w-32`}>{r.tenantName}</div>
                      <div className={`${ID} text-slate-400`}>
                        {r.tenantId} · {r.mode}
                      </div>
                    </td>
                    <td className={tdClass}>
                      <div className={`${WRAP} w-32`}>{r.eventType}</div>
                      <div className={`${ID} text-slate-400`}>{r.eventId}</div>
                    </td>
                    <td className={tdClass} title={r.endpointUrl ?? 'postBackUrl'}>
                      <div className="w-40 truncate">{r.postBack ? 'postBackUrl' : r.endpointUrl}</div>
                      <div className={`${ID} text-slate-400`}>{r.endpointId}</div>
                    </td>
                    <td className={`${tdClass} text-xs`} title={r.lastError ?? ''}>
                      <div className={`${WRAP} line-clamp-3 w-40`}>{r.lastError ?? '—'}</div>
                    </td>
                    <td className={`${tdClass} text-xs`}>
                      <div className={`${WRAP} w-24`}>{formatTime(r.deadAt)}</div>
                    </td>
                    <td className={tdClass}>
                      {r.replayId ? (
                        <span className="flex flex-col gap-1 text-xs">
                          <span className={`${ID} font-mono`}>{r.replayId}</span>
                          {r.replayStatus && <StatusBadge status={r.replayStatus} />}
                        </span>
                      ) : (
                        <Button size="sm" variant="secondary" disabled={busy} onClick={() => setPending([r.id])}>
                          Replay
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </div>
    </>
  );
}
