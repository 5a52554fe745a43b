'use client';

import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { FormError } from './field';
import { StepUpField } from './step-up-field';

export interface ConfirmRow {
  label: string;
  value: ReactNode;
  /** Addresses and ids: monospace, broken anywhere so a 42-character address never overflows a phone. */
  mono?: boolean;
}

/**
 * The review before money moves (issue 35): the first click of Withdraw, Refund, Approve refund, Send back,
 * a claim link or a replay opens this; only its confirm button calls the server action. It restates what
 * will happen (amount, fee, asset, network, destination) and holds the step-up code when the user has 2FA,
 * so the code is typed next to what it authorises.
 */
export function ConfirmStep({
  open,
  title,
  rows,
  note,
  confirmLabel,
  busy,
  error,
  stepUp,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  rows: ConfirmRow[];
  note?: ReactNode;
  confirmLabel: string;
  busy: boolean;
  /** The server's refusal, shown here so a wrong code can be retyped without starting over. */
  error?: string | null;
  stepUp?: { id: string; enabled: boolean; value: string; onChange: (v: string) => void };
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onClose={onCancel} title={title}>
      <dl className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm" data-testid="confirm-details">
        {rows.map((r) => (
          <div key={r.label} className="grid grid-cols-[8rem_1fr] gap-2 px-3 py-2">
            <dt className="text-slate-500">{r.label}</dt>
            <dd className={`tabular-nums text-slate-900 ${r.mono ? 'break-all font-mono text-xs' : ''}`}>{r.value}</dd>
          </div>
        ))}
      </dl>
      {note ? <p className="mt-3 text-xs text-slate-600">{note}</p> : null}
      <div className="mt-3">
        <FormError message={error} />
      </div>
      <div className="mt-4 flex flex-wrap items-end justify-end gap-2">
        {stepUp ? <StepUpField {...stepUp} /> : null}
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Back
        </Button>
        <Button onClick={onConfirm} disabled={busy || (stepUp?.enabled === true && stepUp.value.length === 0)}>
          {busy ? 'Working…' : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
