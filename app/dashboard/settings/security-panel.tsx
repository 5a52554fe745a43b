'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import type { ActionResult } from '@/lib/dashboard/action-result';
import { TotpCodeInput } from '@/lib/auth/schemas';
import { confirmTotpAction, disableTotpAction, regenerateRecoveryCodesAction, startTotpAction } from './actions';

/** One authenticator code, checked here first, then `action`; `onDone` gets the action's data. */
function CodeForm<T>({
  label,
  submit,
  action,
  onDone,
}: {
  label: string;
  submit: string;
  action: (code: string) => Promise<ActionResult<T>>;
  onDone: (data: T) => void;
}) {
  const { formError: error, busy, submit: send } = useFormSubmit();
  return (
    <form
      noValidate
      className="flex flex-wrap items-start gap-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const code = String(new FormData(e.currentTarget).get('code') ?? '');
        const parsed = TotpCodeInput.safeParse({ code });
        const res = await send(parsed.success ? null : `Code ${parsed.error.issues[0]!.message}`, () => action(code));
        if (res) onDone(res.data);
      }}
    >
      <div className="w-48">
        <label htmlFor={`code-${submit}`} className="mb-1 block text-xs font-medium text-slate-600">
          {label}
        </label>
        <input
          id={`code-${submit}`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className={inputClass}
          aria-invalid={!!error}
        />
        <p className="min-h-5 text-xs text-red-600" role={error ? 'alert' : undefined}>
          {error ?? ''}
        </p>
      </div>
      <Button type="submit" variant="secondary" className="mt-5" disabled={busy}>
        {submit}
      </Button>
    </form>
  );
}

export function SecurityPanel({ enabled, codesLeft }: { enabled: boolean; codesLeft: number }) {
  const router = useRouter();
  const toast = useToast();
  const [setup, setSetup] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const { busy, run } = useFormSubmit();

  return (
    <div className="space-y-4 text-sm">
      <p className="text-slate-700">
        Two-factor sign-in is <strong data-testid="totp-state">{enabled ? 'on' : 'off'}</strong>.
        {enabled && ` ${codesLeft} recovery code${codesLeft === 1 ? '' : 's'} left.`}
      </p>
      {codes && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4" role="alert">
          <p className="font-semibold text-amber-900">Save your recovery codes</p>
          <p className="mt-1 text-amber-800">Each one signs you in once if you lose your phone. They are not shown again.</p>
          <pre className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm" data-testid="recovery-codes">
            {codes.join('\n')}
          </pre>
          <div className="mt-2">
            <CopyButton value={codes.join('\n')} label="Copy all" />
          </div>
        </div>
      )}
      {!enabled && !setup && (
        <Button
          variant="secondary"
          disabled={busy}
          onClick={async () => {
            const r = await run(() => startTotpAction());
            if (r.ok) setSetup(r.data);
            else toast(r.error.message, 'error');
          }}
        >
          Set up authenticator app
        </Button>
      )}
      {!enabled && setup && (
        <div className="flex flex-wrap items-start gap-6">
          <div
            className="h-40 w-40 shrink-0"
            role="img"
            aria-label="QR code for your authenticator app"
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <div className="space-y-2">
            <p className="text-slate-600">Scan the code with an authenticator app, or enter this key:</p>
            <code className="block font-mono text-xs" data-testid="totp-secret">
              {setup.secret}
            </code>
            <CodeForm
              label="Code from the app"
              submit="Turn on"
              action={(code) => confirmTotpAction({ code })}
              onDone={(data) => {
                setCodes(data.recoveryCodes);
                setSetup(null);
                toast('Two-factor sign-in is on');
                router.refresh();
              }}
            />
          </div>
        </div>
      )}
      {enabled && (
        <div className="flex flex-wrap gap-8">
          <CodeForm
            label="Current code"
            submit="New recovery codes"
            action={(code) => regenerateRecoveryCodesAction({ code })}
            onDone={(data) => {
              setCodes(data.recoveryCodes);
              router.refresh();
            }}
          />
          <CodeForm
            label="Current code"
            submit="Turn off"
            action={(code) => disableTotpAction({ code })}
            onDone={() => {
              toast('Two-factor sign-in is off');
              setCodes(null);
              router.refresh();
            }}
          />
        </div>
      )}
    </div>
  );
}
