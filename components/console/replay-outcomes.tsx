'use client';

import { useEffect, useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { deliveryOutcomesAction } from './actions';
import type { ReplayOutcome } from '@/lib/console/replay-dead-letters';

type Live = Record<string, { status: string; attemptCount: number; lastError: string | null }>;
const DONE = new Set(['SUCCEEDED', 'DEAD_LETTER']);

/** The outcome of each replay: refused at once, or the new delivery followed until it succeeds or gives up. */
export function ReplayOutcomes({ outcomes }: { outcomes: ReplayOutcome[] }) {
  const [live, setLive] = useState<Live>({});
  const ids = outcomes.flatMap((o) => (o.ok ? [o.replayDeliveryId] : []));
  const pending = ids.filter((id) => !DONE.has(live[id]?.status ?? ''));
  const key = pending.join(',');

  useEffect(() => {
    if (!key) return;
    let stop = false;
    const tick = async () => {
      const res = await deliveryOutcomesAction(key.split(','));
      if (stop || !res.ok) return;
      setLive((prev) => ({ ...prev, ...Object.fromEntries(res.data.map((d) => [d.id, d])) }));
    };
    void tick();
    const t = setInterval(tick, 1_500);
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [key]);

  if (outcomes.length === 0) return null;
  return (
    <section
      aria-label="Replay outcomes"
      aria-live="polite"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="replay-outcomes"
    >
      <h2 className="mb-2 font-semibold text-slate-900">Replay outcomes</h2>
      <ul className="space-y-1">
        {outcomes.map((o) => (
          <li key={o.deliveryId} data-outcome-for={o.deliveryId} className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs">{o.deliveryId}</span>
            {o.ok ? (
              <>
                <span>
                  → replayed as <span className="font-mono text-xs">{o.replayDeliveryId}</span>
                </span>
                {live[o.replayDeliveryId] ? <StatusBadge status={live[o.replayDeliveryId]!.status} /> : <StatusBadge status="PENDING" />}
                {live[o.replayDeliveryId]?.lastError && <span className="text-xs text-red-600">{live[o.replayDeliveryId]!.lastError}</span>}
              </>
            ) : (
              <span className="text-red-700" role="alert">
                not replayed: {o.error}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
