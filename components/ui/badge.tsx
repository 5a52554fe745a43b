const TONES = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  blue: 'bg-sky-50 text-sky-700 ring-sky-600/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  gray: 'bg-slate-100 text-slate-600 ring-slate-500/20',
  violet: 'bg-violet-50 text-violet-700 ring-violet-600/20',
} as const;

const STATUS_TONE: Record<string, keyof typeof TONES> = {
  PAID_OUT: 'green',
  COMPLETED: 'green',
  SUCCEEDED: 'green',
  ACTIVE: 'green',
  CONFIRMED: 'blue',
  PROCESSING_PAYOUT: 'blue',
  PROCESSING: 'blue',
  DETECTED: 'blue',
  PENDING: 'gray',
  PARTIAL: 'amber',
  PARTIALLY_PAID: 'amber',
  OVERPAID: 'amber',
  FAILED: 'red',
  DEAD_LETTER: 'red',
  REVOKED: 'red',
  EXPIRED: 'gray',
  EMERGENCY: 'red',
  APPROVED: 'green',
  DECLINED: 'red',
  SUPERSEDED: 'gray',
  OPEN: 'blue',
  USED: 'green',
  CANCELED: 'gray',
};

export function Badge({ tone = 'gray', children }: { tone?: keyof typeof TONES; children: React.ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]}`}>{children}</span>;
}

/** A status in its colour; underscores become spaces so PAID_OUT reads "Paid out". */
/** An enum name as a word ("PAID_OUT" → "Paid out"): badges, chart axes. */
export function statusLabel(status: string) {
  return status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');
}

export function StatusBadge({ status }: { status: string }) {
  const label = statusLabel(status);
  return (
    <span data-status={status}>
      <Badge tone={STATUS_TONE[status] ?? 'gray'}>{label}</Badge>
    </span>
  );
}
