'use client';

import { statusLabel } from '@/components/ui/badge';
import { Bar, BarChart, CartesianGrid, Cell, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '@/components/ui/money';
import { Decimal } from '@/lib/money';
import type { DayPoint } from '@/lib/dashboard/overview-stats';

// Recharts needs numbers for pixel positions only; every label and tooltip prints the original decimal string.
const plot = (s: string) => new Decimal(s).toNumber();
const shortDay = (d: string) => d.slice(5);

const STATUS_COLORS: Record<string, string> = {
  PAID_OUT: '#10b981',
  CONFIRMED: '#0ea5e9',
  PROCESSING_PAYOUT: '#6366f1',
  DETECTED: '#38bdf8',
  PENDING: '#94a3b8',
  PARTIALLY_PAID: '#f59e0b',
  OVERPAID: '#f97316',
  EXPIRED: '#cbd5e1',
  FAILED: '#ef4444',
};

function MoneyTooltip({ active, payload, label }: { active?: boolean; payload?: { payload: DayPoint }[]; label?: string }) {
  if (!active || !payload?.length) return null;
  const p = payload[0]!.payload;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow">
      <p className="font-medium text-slate-900">{label}</p>
      <p className="text-slate-600">Received: {formatMoney(p.received)} USDT</p>
      <p className="text-slate-600">Fees: {formatMoney(p.fees)} USDT</p>
    </div>
  );
}

export function VolumeChart({ series }: { series: DayPoint[] }) {
  const data = series.map((p) => ({ ...p, receivedN: plot(p.received), feesN: plot(p.fees) }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 11, fill: '#64748b' }} minTickGap={16} />
        <YAxis tick={{ fontSize: 11, fill: '#64748b' }} width={56} />
        <Tooltip content={<MoneyTooltip />} cursor={{ fill: '#f1f5f9' }} />
        <Bar dataKey="receivedN" name="Received" fill="#6366f1" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        <Bar dataKey="feesN" name="Fees" fill="#f59e0b" radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function StatusChart({ data }: { data: { status: string; count: number }[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, left: 8, bottom: 0 }}>
        <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11, fill: '#64748b' }} />
        <YAxis type="category" dataKey="status" width={120} tickFormatter={statusLabel} tick={{ fontSize: 11, fill: '#334155' }} />
        <Tooltip cursor={{ fill: '#f1f5f9' }} />
        <Bar dataKey="count" name="Invoices" radius={[0, 3, 3, 0]} isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.status} fill={STATUS_COLORS[d.status] ?? '#94a3b8'} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}

export function DeliveryRateChart({ series }: { series: DayPoint[] }) {
  const data = series.map((p) => {
    const total = p.delivered + p.failed;
    return { day: p.day, rate: total === 0 ? null : Math.round((p.delivered / total) * 1000) / 10, total };
  });
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 11, fill: '#64748b' }} minTickGap={16} />
        <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11, fill: '#64748b' }} width={44} />
        <Tooltip formatter={(v) => [`${v}%`, 'Success rate']} />
        <Line type="monotone" dataKey="rate" stroke="#10b981" strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
