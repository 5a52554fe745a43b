'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { StepUpField } from '@/components/ui/step-up-field';
import { CreateApiKeyBody, UpdateApiKeyBody, type ApiKeyView } from '@/lib/api-keys/schemas';
import { SCOPES } from '@/lib/api/scopes';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { createKeyAction, updateKeyAction } from './actions';

const SCOPE_HELP: Record<string, string> = {
  'invoices:read': 'Read invoices',
  'invoices:write': 'Create invoices',
  'withdrawals:read': 'Read balance and withdrawals',
  'withdrawals:write': 'Create withdrawals',
  'webhooks:manage': 'Manage webhook endpoints and deliveries',
  'orders:manage': 'Manage storefront orders',
  admin: 'Everything, including API keys',
};

export function KeyForm({
  existing,
  onDone,
  totpEnabled = false,
}: {
  existing?: ApiKeyView;
  onDone: (created?: { name: string; key: string }) => void;
  totpEnabled?: boolean;
}) {
  const [totpCode, setTotpCode] = useState('');
  const { errors, formError, busy, submit } = useFormSubmit();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const expires = String(f.get('expiresInDays') ?? '').trim();
    const input: Record<string, unknown> = {
      name: String(f.get('name') ?? ''),
      scopes: f.getAll('scopes').map(String),
      rateLimitRpm: Number(f.get('rateLimitRpm')),
    };
    if (!existing && expires) input.expiresInDays = Number(expires);
    const parsed = (existing ? UpdateApiKeyBody : CreateApiKeyBody).safeParse(input);
    const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () =>
      existing ? updateKeyAction(existing.id, input) : createKeyAction(input, { totpCode }),
    );
    if (!res) return;
    onDone(existing ? undefined : (res.data as unknown as { name: string; key: string }));
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FormError message={formError} />
      <Field id="key-name" label="Name" error={errors.name}>
        <input
          id="key-name"
          name="name"
          defaultValue={existing?.name}
          placeholder="Checkout server"
          className={inputClass}
          aria-invalid={!!errors.name}
        />
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-700">Scopes</legend>
        <div className="grid grid-cols-1 gap-1 sm:grid-cols-2">
          {SCOPES.map((s) => (
            <label key={s} className="flex items-start gap-2 rounded-md p-1.5 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                name="scopes"
                value={s}
                defaultChecked={existing ? existing.scopes.includes(s) : s.startsWith('invoices')}
                className="mt-0.5"
              />
              <span>
                <span className="font-mono text-xs text-slate-900">{s}</span>
                <span className="block text-xs text-slate-500">{SCOPE_HELP[s]}</span>
              </span>
            </label>
          ))}
        </div>
        <p className="min-h-5 text-xs text-red-600" role={errors.scopes ? 'alert' : undefined}>
          {errors.scopes ?? ''}
        </p>
      </fieldset>
      <div className="grid grid-cols-2 gap-4">
        <Field id="key-rate" label="Rate limit (requests/min)" error={errors.rateLimitRpm}>
          <input
            id="key-rate"
            name="rateLimitRpm"
            type="number"
            min={1}
            max={10000}
            defaultValue={existing?.rateLimitRpm ?? 120}
            className={inputClass}
          />
        </Field>
        {!existing && (
          <Field id="key-expiry" label="Expires after (days)" error={errors.expiresInDays} hint="Empty: never expires.">
            <input id="key-expiry" name="expiresInDays" type="number" min={1} max={3650} className={inputClass} />
          </Field>
        )}
      </div>
      <div className="flex items-end justify-end gap-2 pt-2">
        {!existing && <StepUpField id="key-totp" enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />}
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : existing ? 'Save changes' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}
