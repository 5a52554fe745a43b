'use client';

import { useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';

/** A button that asks first, in a native modal dialog (focus trap and Escape for free). */
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel = 'Confirm',
  variant = 'danger',
  size = 'sm',
  onConfirm,
}: {
  label: string;
  title: string;
  body: ReactNode;
  confirmLabel?: string;
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  onConfirm: () => Promise<void> | void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant="secondary" size={size} onClick={() => ref.current?.showModal()}>
        {label}
      </Button>
      <dialog ref={ref} className="m-auto w-full max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-label={title}>
        <div className="p-6">
          <h2 className="text-base font-semibold text-slate-900">{title}</h2>
          <div className="mt-2 text-sm text-slate-600">{body}</div>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()}>
              Cancel
            </Button>
            <Button
              variant={variant}
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                } finally {
                  setBusy(false);
                  ref.current?.close();
                }
              }}
            >
              {busy ? 'Working…' : confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
