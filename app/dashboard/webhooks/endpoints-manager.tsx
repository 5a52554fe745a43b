'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import type { WebhookEndpointView } from '@/lib/webhooks/schemas';
import { deleteEndpointAction, recoverAction, rotateSecretAction, testEndpointAction } from './actions';
import { EndpointForm } from './endpoint-form';

type TestOutcome = { success: boolean; statusCode: number | null; durationMs: number; error: string | null; responseBody: string | null };

export function EndpointsManager({
  endpoints,
  canManage,
  accountVersion,
}: {
  endpoints: WebhookEndpointView[];
  canManage: boolean;
  /** The account's API version: what endpoints without their own render events in. */
  accountVersion: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpointView | null>(null);
  const [recovering, setRecovering] = useState<WebhookEndpointView | null>(null);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | 'running'>>({});

  async function sendTest(id: string) {
    setTests((t) => ({ ...t, [id]: 'running' }));
    const res = await testEndpointAction(id);
    if (!res.ok) {
      setTests(({ [id]: _, ...t }) => t);
      return toast(res.error.message, 'error');
    }
    setTests((t) => ({ ...t, [id]: res.data }));
  }

  return (
    <div className="-m-5">
      <div className="flex items-center justify-between border-b border-slate-100 px-5 py-3">
        <p className="text-sm text-slate-500">
          {endpoints.length} endpoint{endpoints.length === 1 ? '' : 's'}
        </p>
        {canManage && <Button onClick={() => setAdding(true)}>Add endpoint</Button>}
      </div>
      {secret && (
        <div className="m-5 rounded-md border border-amber-300 bg-amber-50 p-4" role="alert" data-testid="endpoint-secret-panel">
          <p className="text-sm font-semibold text-amber-900">{secret.title}</p>
          <p className="mt-1 text-sm text-amber-800">
            Store this signing secret now; it is not shown again. Use it to verify the X-Webhook-Signature header.
          </p>
          <div className="mt-3 flex items-center gap-2">
            <code
              data-testid="endpoint-secret"
              className="min-w-0 flex-1 truncate rounded bg-white px-3 py-2 font-mono text-sm ring-1 ring-amber-200"
            >
              {secret.value}
            </code>
            <CopyButton value={secret.value} />
            <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {endpoints.length === 0 ? (
        <EmptyState title="No endpoints yet">Add an HTTPS endpoint to receive invoice, withdrawal and order events.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {endpoints.map((ep) => {
            const t = tests[ep.id];
            return (
              <li key={ep.id} className="px-5 py-4" data-endpoint-id={ep.id}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0">
                    <p className="truncate font-mono text-sm text-slate-900">{ep.url}</p>
                    <p className="mt-1 text-xs text-slate-500">
                      {ep.description ? `${ep.description} · ` : ''}
                      {ep.eventsSubscribed.includes('*')
                        ? 'All events'
                        : `${ep.eventsSubscribed.length} event type${ep.eventsSubscribed.length === 1 ? '' : 's'}`}{' '}
                      · <span data-testid="endpoint-api-version">API version {ep.apiVersion ?? `${accountVersion} (the account's)`}</span> · {ep.id}
                    </p>
                    {ep.disabledReason && <p className="mt-1 text-xs text-red-600">Disabled by the gateway: {ep.disabledReason}</p>}
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={ep.enabled ? 'green' : 'gray'}>{ep.enabled ? 'Enabled' : 'Disabled'}</Badge>
                    {canManage && (
                      <>
                        <Button variant="secondary" size="sm" onClick={() => sendTest(ep.id)} disabled={t === 'running'}>
                          {t === 'running' ? 'Sending…' : 'Send test'}
                        </Button>
                        <Button variant="secondary" size="sm" onClick={() => setEditing(ep)}>
                          Edit
                        </Button>
                        <Button variant="secondary" size="sm" onClick={() => setRecovering(ep)}>
                          Recover
                        </Button>
                        <ConfirmButton
                          label="Rotate secret"
                          variant="primary"
                          title="Rotate the signing secret?"
                          body="A new secret is issued now. For 24 hours deliveries carry signatures with both secrets, so you can deploy the new one without dropping events."
                          confirmLabel="Rotate"
                          onConfirm={async () => {
                            const res = await rotateSecretAction(ep.id, { graceHours: 24 });
                            if (!res.ok) return toast(res.error.message, 'error');
                            setSecret({ title: 'New signing secret', value: res.data.secret });
                            router.refresh();
                          }}
                        />
                        <ConfirmButton
                          label="Delete"
                          title="Delete this endpoint?"
                          body="No more events are sent to it. Its delivery log is kept."
                          confirmLabel="Delete endpoint"
                          onConfirm={async () => {
                            const res = await deleteEndpointAction(ep.id);
                            toast(res.ok ? 'Endpoint deleted' : res.error.message, res.ok ? 'success' : 'error');
                            router.refresh();
                          }}
                        />
                      </>
                    )}
                  </div>
                </div>
                {t && t !== 'running' && (
                  <div
                    data-testid="test-outcome"
                    className={`mt-3 rounded-md border px-3 py-2 text-sm ${t.success ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : 'border-red-200 bg-red-50 text-red-800'}`}
                  >
                    {t.success ? 'Test delivered' : 'Test failed'} · {t.statusCode !== null ? `HTTP ${t.statusCode}` : (t.error ?? 'no response')} ·{' '}
                    {t.durationMs} ms
                    {t.responseBody && (
                      <pre className="mt-1 max-h-24 overflow-auto whitespace-pre-wrap font-mono text-xs opacity-80">
                        {t.responseBody.slice(0, 500)}
                      </pre>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <Dialog open={adding} onClose={() => setAdding(false)} title="Add webhook endpoint" wide>
        <EndpointForm
          accountVersion={accountVersion}
          onDone={(s) => {
            setAdding(false);
            if (s) setSecret({ title: 'Endpoint created: copy its signing secret', value: s });
            toast('Endpoint added');
            router.refresh();
          }}
        />
      </Dialog>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title="Edit endpoint" wide>
        {editing && (
          <EndpointForm
            existing={editing}
            accountVersion={accountVersion}
            onDone={() => {
              setEditing(null);
              toast('Endpoint saved');
              router.refresh();
            }}
          />
        )}
      </Dialog>
      <Dialog open={recovering !== null} onClose={() => setRecovering(null)} title="Recover failed deliveries">
        {recovering && <RecoverForm endpointId={recovering.id} onDone={() => setRecovering(null)} />}
      </Dialog>
    </div>
  );
}

function RecoverForm({ endpointId, onDone }: { endpointId: string; onDone: () => void }) {
  const toast = useToast();
  const router = useRouter();
  const [since, setSince] = useState(() => new Date(Date.now() - 86_400_000).toISOString().slice(0, 16));
  const { formError: error, busy, run } = useFormSubmit();
  return (
    <form
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const res = await run(() => recoverAction(endpointId, { since: `${since}:00Z` }));
        if (!res.ok) return;
        toast(`${res.data.deliveryIds.length} deliver${res.data.deliveryIds.length === 1 ? 'y' : 'ies'} queued again`);
        router.refresh();
        onDone();
      }}
    >
      <p className="mb-3 text-sm text-slate-600">
        Failed and dead-lettered deliveries to this endpoint created since this time (UTC) are sent again.
      </p>
      <label htmlFor="recover-since" className="block text-sm font-medium text-slate-700">
        Since (UTC)
      </label>
      <input id="recover-since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} className={`${inputClass} mt-1`} />
      <p className="min-h-5 text-xs text-red-600" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          Recover
        </Button>
      </div>
    </form>
  );
}
