'use client';

import { Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, YAxis } from 'recharts';
import { formatMoney } from '@/components/ui/money';
import { Decimal } from '@/lib/money';

export interface SparkPoint {
  at: string;
  /** Decimal string; null where the run could not read the line. */
  difference: string | null;
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: { payload: SparkPoint }[] }) {
  if (!active || !payload?.length) return null;
  const p = payload[0]!.payload;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-2 py-1 text-xs shadow">
      <p className="text-slate-500">{p.at.replace('T', ' ').slice(0, 19)} UTC</p>
      <p className="font-medium text-slate-900">{p.difference === null ? 'unreadable' : formatMoney(p.difference)}</p>
    </div>
  );
}

/** The difference of a solvency line over its last runs; the zero line marks a shortfall below it. */
export function DifferenceSparkline({ points }: { points: SparkPoint[] }) {
  // Numbers for pixel positions only; the tooltip prints the decimal string.
  const data = points.map((p) => ({ ...p, y: p.difference === null ? null : new Decimal(p.difference).toNumber() }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 2, right: 2, left: 2, bottom: 2 }}>
        <YAxis hide domain={['auto', 'auto']} />
        <ReferenceLine y={0} stroke="#cbd5e1" strokeDasharray="2 2" />
        <Tooltip content={<PointTooltip />} />
        <Line type="monotone" dataKey="y" stroke="#7c3aed" strokeWidth={1.5} dot={false} connectNulls={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
