'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { StepUpField } from '@/components/ui/step-up-field';
import { formatTime } from '@/components/ui/time';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { TenantNameInput, UnderpaymentToleranceInput } from '@/lib/tenants/schemas';
import {
  renameTenantAction,
  revealPostbackSecretAction,
  rotatePostbackSecretAction,
  setAutoRefundPolicyAction,
  setUnderpaymentToleranceAction,
} from './actions';

export function TenantNameForm({ name, canEdit }: { name: string; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { formError, busy, submit } = useFormSubmit();
  const error = formError ?? undefined;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const input = { name: String(new FormData(e.currentTarget).get('name') ?? '') };
        const parsed = TenantNameInput.safeParse(input);
        const res = await submit(parsed.success ? null : parsed.error.issues[0]!.message, () => renameTenantAction(input));
        if (!res) return;
        toast('Business name saved');
        router.refresh();
      }}
    >
      <Field id="tenant-name" label="Business name" error={error} hint="Shown in the dashboard and on hosted checkout pages.">
        <div className="flex gap-2">
          <input id="tenant-name" name="name" defaultValue={name} disabled={!canEdit} className={inputClass} aria-invalid={!!error} />
          {canEdit && (
            <Button type="submit" variant="secondary" disabled={busy}>
              Save
            </Button>
          )}
        </div>
      </Field>
    </form>
  );
}

export function UnderpaymentToleranceForm({ percent, canEdit }: { percent: string; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { formError, busy, submit } = useFormSubmit();
  const error = formError ?? undefined;
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const input = { underpaymentTolerancePercent: String(new FormData(e.currentTarget).get('tolerance') ?? '') };
        const parsed = UnderpaymentToleranceInput.safeParse(input);
        const res = await submit(parsed.success ? null : parsed.error.issues[0]!.message, () => setUnderpaymentToleranceAction(input));
        if (!res) return;
        toast('Underpayment tolerance saved');
        router.refresh();
      }}
    >
      <Field
        id="underpayment-tolerance"
        label="Underpayment tolerance (%)"
        error={error}
        hint="A payment at most this far short of an invoice (0 to 5 %) counts as paid; the shortfall is shown on the invoice. Applies to invoices created from now on."
      >
        <div className="flex gap-2">
          <input
            id="underpayment-tolerance"
            name="tolerance"
            inputMode="decimal"
            defaultValue={percent}
            disabled={!canEdit}
            className={inputClass}
            aria-invalid={!!error}
          />
          {canEdit && (
            <Button type="submit" variant="secondary" disabled={busy}>
              Save
            </Button>
          )}
        </div>
      </Field>
    </form>
  );
}

/** The auto-refund policy's settings as the page passes them (decimals as plain strings). */
export interface AutoRefundPolicyView {
  enabled: boolean;
  enabledAt: string | null;
  delaySeconds: number;
  maxMultiple: string;
  maxAmount: string;
}

/**
 * The auto-refund policy (owner only): overpayments go back without the owner's approval to an address the payer
 * gave with their checkout's claim token (or through a claim link), after a delay, up to a bound. Switching it on,
 * a shorter delay or a higher bound asks for the authenticator code when 2FA is on (checked on the server).
 */
export function AutoRefundPolicyForm({ policy, totpEnabled, canEdit }: { policy: AutoRefundPolicyView; totpEnabled: boolean; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const {
    formError: error,
    busy,
    run,
  } = useFormSubmit({
    // The fields here carry no message of their own: the first detail names its field in the form's message.
    message: (e) => (e.details?.[0] ? `${e.message} (${e.details[0].path} ${e.details[0].message})` : e.message),
  });
  const [totpCode, setTotpCode] = useState('');
  const label = 'mb-1 block text-xs font-medium text-slate-600';
  return (
    <form
      noValidate
      aria-label="Auto-refund policy"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const on = f.get('autoRefund') === 'on';
        const delay = String(f.get('delaySeconds') ?? '').trim();
        const res = await run(() =>
          setAutoRefundPolicyAction({
            autoRefundOverpayments: on,
            // Not a whole number: sent as typed, so the server's message names the field.
            autoRefundDelaySeconds: delay === '' ? undefined : /^\d+$/.test(delay) ? Number(delay) : delay,
            autoRefundMaxMultiple: String(f.get('maxMultiple') ?? '').trim() || undefined,
            autoRefundMaxAmount: String(f.get('maxAmount') ?? '').trim() || undefined,
            ...(totpEnabled && totpCode ? { totpCode } : {}),
          }),
        );
        if (!res.ok) return;
        setTotpCode('');
        toast(on ? 'Overpayments will be refunded automatically' : 'Refund requests wait for your approval');
        router.refresh();
      }}
    >
      <FormError message={error} />
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="checkbox" name="autoRefund" defaultChecked={policy.enabled} disabled={!canEdit} className="mt-1" />
        <span>
          Refund overpayments automatically to the address the payer gives on their checkout
          <span className="block text-xs text-slate-500">
            Only for addresses given with the payer&apos;s own checkout link or your claim link, never for payments made before you switch this on
            {policy.enabledAt ? (
              <>
                {' '}
                (on since <span data-testid="auto-refund-enabled-at">{formatTime(policy.enabledAt)}</span>)
              </>
            ) : null}
            . You are notified at once and can decline during the delay. Once confirmed and credited it costs you nothing (no withdrawal fee, the
            invoice fee on it returned). Your 24 h limit and approval threshold still apply; late payments on expired invoices always wait for you.
          </span>
        </span>
      </label>
      <div className="mt-3 grid items-end gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor="auto-refund-delay" className={label}>
            Delay before refunding (seconds)
          </label>
          <input
            id="auto-refund-delay"
            name="delaySeconds"
            inputMode="numeric"
            defaultValue={policy.delaySeconds}
            disabled={!canEdit}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="auto-refund-multiple" className={label}>
            Hold overpayments above (× price)
          </label>
          <input
            id="auto-refund-multiple"
            name="maxMultiple"
            inputMode="decimal"
            defaultValue={policy.maxMultiple}
            disabled={!canEdit}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="auto-refund-amount" className={label}>
            …or above (amount)
          </label>
          <input
            id="auto-refund-amount"
            name="maxAmount"
            inputMode="decimal"
            defaultValue={policy.maxAmount}
            disabled={!canEdit}
            className={inputClass}
          />
        </div>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Overpayments above the lower of the two bounds are held for you. Switching on, a shorter delay or a higher bound needs your authenticator code
        when two-factor is on.
      </p>
      {canEdit && (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <StepUpField id="auto-refund-totp" enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />
          <Button type="submit" variant="secondary" disabled={busy}>
            Save
          </Button>
        </div>
      )}
    </form>
  );
}

interface PostbackStatus {
  exists: boolean;
  revealed: boolean;
  lastFour: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string | null;
}

export function PostbackSecretPanel({ status, canReveal }: { status: PostbackStatus; canReveal: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [secret, setSecret] = useState<string | null>(null);
  const show = (res: Awaited<ReturnType<typeof revealPostbackSecretAction>>) => {
    if (!res.ok) return toast(res.error.message, 'error');
    setSecret(res.data.secret);
    router.refresh();
  };
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-600">Signs the notifications sent to a withdrawal&apos;s postBackUrl. Verify them like webhooks.</p>
      <p className="text-slate-800">
        {status.exists ? (
          <>
            Current secret ends in <span className="font-mono">…{status.lastFour}</span>
            {status.createdAt && <>, created {formatTime(status.createdAt)}</>}
          </>
        ) : (
          'No secret yet: it is created when first revealed.'
        )}
      </p>
      {status.previousSecretExpiresAt && (
        <p className="text-xs text-slate-500">The previous secret also signs until {formatTime(status.previousSecretExpiresAt)}.</p>
      )}
      {secret && (
        <div className="flex items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-3" role="alert">
          <code className="min-w-0 flex-1 truncate font-mono text-xs" data-testid="postback-secret">
            {secret}
          </code>
          <CopyButton value={secret} />
        </div>
      )}
      {canReveal && (
        <div className="flex gap-2">
          {!status.revealed && (
            <Button variant="secondary" size="sm" onClick={async () => show(await revealPostbackSecretAction())}>
              Reveal once
            </Button>
          )}
          <ConfirmButton
            label="Rotate"
            variant="primary"
            title="Rotate the postback secret?"
            body="A new secret is issued and shown once; the old one keeps signing for 24 hours."
            confirmLabel="Rotate"
            onConfirm={async () => show(await rotatePostbackSecretAction())}
          />
        </div>
      )}
    </div>
  );
}
