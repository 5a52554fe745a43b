'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { API_VERSION_NAMES } from '@/lib/api/versions';
import { EVENT_GROUPS as GROUPS } from '@/lib/events/event-groups';
import { EVENT_TYPES } from '@/lib/events/types';
import { CreateWebhookEndpointBody, UpdateWebhookEndpointBody, type WebhookEndpointView } from '@/lib/webhooks/schemas';
import { createEndpointAction, updateEndpointAction } from './actions';

export function EndpointForm({
  existing,
  accountVersion,
  onDone,
}: {
  existing?: WebhookEndpointView;
  /** The account's API version, which an endpoint without its own follows. */
  accountVersion: string;
  onDone: (secret?: string) => void;
}) {
  const [all, setAll] = useState(existing ? existing.eventsSubscribed.includes('*') : false);
  const [picked, setPicked] = useState<Set<string>>(new Set(existing?.eventsSubscribed.filter((e) => e !== '*') ?? ['invoice.paid_out']));
  const { errors, formError, busy, submit } = useFormSubmit();

  const toggle = (types: readonly string[], on: boolean) =>
    setPicked((p) => {
      const n = new Set(p);
      for (const t of types)
        if (on) n.add(t);
        else n.delete(t);
      return n;
    });

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const description = String(f.get('description') ?? '').trim();
    const input: Record<string, unknown> = {
      url: String(f.get('url') ?? '').trim(),
      enabled: f.get('enabled') === 'on',
      eventsSubscribed: all ? ['*'] : EVENT_TYPES.filter((t) => picked.has(t)),
    };
    if (description) input.description = description;
    else if (existing?.description) input.description = null;
    const apiVersion = String(f.get('apiVersion') ?? '') || null;
    if (existing ? apiVersion !== existing.apiVersion : apiVersion !== null) input.apiVersion = apiVersion;
    const parsed = (existing ? UpdateWebhookEndpointBody : CreateWebhookEndpointBody).safeParse(input);
    const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () =>
      existing ? updateEndpointAction(existing.id, input) : createEndpointAction(input),
    );
    if (!res) return;
    onDone('secret' in res.data ? (res.data as { secret: string }).secret : undefined);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FormError message={formError} />
      <Field id="ep-url" label="Endpoint URL" error={errors.url} hint="HTTPS; http://localhost is accepted in test mode outside production.">
        <input
          id="ep-url"
          name="url"
          type="url"
          defaultValue={existing?.url}
          placeholder="https://example.com/webhooks/usdt"
          className={inputClass}
          aria-invalid={!!errors.url}
        />
      </Field>
      <Field id="ep-description" label="Description (optional)" error={errors.description}>
        <input id="ep-description" name="description" defaultValue={existing?.description ?? ''} className={inputClass} />
      </Field>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events to send</legend>
        <label className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All events, including ones added later
        </label>
        {/* Two groups a row: three were too narrow for names like refund_request.approved, which ran into the next group. */}
        <div className={`mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2 ${all ? 'opacity-50' : ''}`}>
          {GROUPS.map((g) => {
            const allOn = g.types.every((t) => picked.has(t));
            return (
              <fieldset key={g.label} className="min-w-0 rounded-md border border-slate-200 p-2" disabled={all}>
                <legend className="px-1 text-xs font-semibold uppercase text-slate-500">{g.label}</legend>
                <label className="flex items-center gap-2 text-xs text-slate-600">
                  <input type="checkbox" checked={allOn} onChange={(e) => toggle(g.types, e.target.checked)} /> Select all
                </label>
                {g.types.map((t) => (
                  <label key={t} className="mt-1 flex items-center gap-2 font-mono text-xs">
                    <input type="checkbox" name="events" value={t} checked={picked.has(t)} onChange={(e) => toggle([t], e.target.checked)} />{' '}
                    <span className="min-w-0 wrap-anywhere">{t}</span>
                  </label>
                ))}
              </fieldset>
            );
          })}
        </div>
        <p className="min-h-5 text-xs text-red-600" role={errors.eventsSubscribed ? 'alert' : undefined}>
          {errors.eventsSubscribed ?? ''}
        </p>
      </fieldset>
      <Field
        id="ep-api-version"
        label="API version of its events"
        error={errors.apiVersion}
        hint="Event names and payloads as of this version. Following the account, the endpoint moves when the owner upgrades it."
      >
        <select id="ep-api-version" name="apiVersion" defaultValue={existing?.apiVersion ?? ''} className={inputClass}>
          <option value="">The account&apos;s ({accountVersion})</option>
          {API_VERSION_NAMES.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={existing?.enabled ?? true} /> Enabled
      </label>
      <div className="flex justify-end pt-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : existing ? 'Save endpoint' : 'Add endpoint'}
        </Button>
      </div>
    </form>
  );
}
