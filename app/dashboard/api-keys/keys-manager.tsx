'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Dialog } from '@/components/ui/dialog';
import { formatTime } from '@/components/ui/time';
import { useToast } from '@/components/ui/toast';
import type { ApiKeyView } from '@/lib/api-keys/schemas';
import { revokeKeyAction } from './actions';
import { KeyForm } from './key-form';

export function KeysManager({
  keys,
  canManage,
  mode,
  totpEnabled = false,
}: {
  keys: ApiKeyView[];
  canManage: boolean;
  mode: 'live' | 'test';
  totpEnabled?: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyView | null>(null);
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);

  return (
    <div className="-m-5">
      <div className="flex items-center justify-between border-b border-slate-100 px-5 py-3">
        <p className="text-sm text-slate-500">
          {keys.length} key{keys.length === 1 ? '' : 's'}
        </p>
        {canManage ? (
          <Button onClick={() => setCreating(true)}>Create key</Button>
        ) : (
          <p className="text-sm text-slate-500" data-testid="keys-owner-only">
            Only the account owner can create or change keys.
          </p>
        )}
      </div>
      {secret && (
        <div className="m-5 rounded-md border border-amber-300 bg-amber-50 p-4" role="alert" data-testid="new-key-panel">
          <p className="text-sm font-semibold text-amber-900">Copy your new key “{secret.name}” now</p>
          <p className="mt-1 text-sm text-amber-800">For your security it is shown only once. If you lose it, revoke it and create another.</p>
          <div className="mt-3 flex items-center gap-2">
            <code data-testid="new-key" className="min-w-0 flex-1 truncate rounded bg-white px-3 py-2 font-mono text-sm ring-1 ring-amber-200">
              {secret.key}
            </code>
            <CopyButton value={secret.key} />
            <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
              Done
            </Button>
          </div>
        </div>
      )}
      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">Create a key to call the API from your server.</EmptyState>
      ) : (
        <div className="overflow-x-auto">
          <table className={tableClass}>
            <thead>
              <tr>
                {['Name', 'Key', 'Scopes', 'Rate limit', 'API version', 'Expires', 'Last used', 'Status', ''].map((h) => (
                  <th key={h} className={thClass}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td className={`${tdClass} font-medium text-slate-900`}>{k.name}</td>
                  <td className={`${tdClass} font-mono text-xs`}>
                    {k.keyPrefix}…{k.lastFour}
                  </td>
                  <td className={`${tdClass} max-w-56 whitespace-normal text-xs`}>{k.scopes.join(', ')}</td>
                  <td className={tdClass}>{k.rateLimitRpm}/min</td>
                  <td className={`${tdClass} text-xs`}>{k.apiVersion ?? 'The account’s'}</td>
                  <td className={tdClass}>{k.expiresAt ? formatTime(k.expiresAt) : 'Never'}</td>
                  <td className={tdClass}>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'Never'}</td>
                  <td className={tdClass}>
                    <StatusBadge status={k.status} />
                  </td>
                  <td className={`${tdClass} text-right`}>
                    {canManage && k.status !== 'REVOKED' && (
                      <div className="flex justify-end gap-2">
                        <Button variant="secondary" size="sm" onClick={() => setEditing(k)}>
                          Edit
                        </Button>
                        <ConfirmButton
                          label="Revoke"
                          title={`Revoke “${k.name}”?`}
                          body="Requests with this key fail immediately on every server. This cannot be undone."
                          confirmLabel="Revoke key"
                          onConfirm={async () => {
                            const res = await revokeKeyAction(k.id);
                            if (res.ok) toast('Key revoked');
                            else toast(res.error.message, 'error');
                            router.refresh();
                          }}
                        />
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={creating} onClose={() => setCreating(false)} title={`Create a ${mode} key`}>
        <KeyForm
          totpEnabled={totpEnabled}
          onDone={(created) => {
            setCreating(false);
            if (created) setSecret({ name: created.name, key: created.key });
            toast('Key created');
            router.refresh();
          }}
        />
      </Dialog>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title="Edit key">
        {editing && (
          <KeyForm
            existing={editing}
            onDone={() => {
              setEditing(null);
              toast('Key updated');
              router.refresh();
            }}
          />
        )}
      </Dialog>
    </div>
  );
}
