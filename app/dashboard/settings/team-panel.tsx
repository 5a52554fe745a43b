'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { tableClass, tdClass, thClass } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/field';
import { formatTime } from '@/components/ui/time';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { InviteMemberInput } from '@/lib/auth/schemas';
import { inviteMemberAction, removeMemberAction, revokeInvitationAction } from './actions';

interface Member {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  lastLoginAt: string | null;
  twoFactor: boolean;
}

export function TeamPanel({
  members,
  invites,
  canManage,
  currentUserId,
}: {
  members: Member[];
  invites: { id: string; email: string; expiresAt: string }[];
  canManage: boolean;
  currentUserId: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, submit } = useFormSubmit();
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  return (
    <div className="space-y-4">
      <div className="-mx-5 overflow-x-auto">
        <table className={tableClass}>
          <thead>
            <tr>
              {['Email', 'Role', '2FA', 'Last sign-in', ''].map((h) => (
                <th key={h} className={thClass}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <td className={tdClass}>
                  {m.email}
                  {m.id === currentUserId && <span className="ml-2 text-xs text-slate-400">(you)</span>}
                </td>
                <td className={tdClass}>
                  <Badge tone={m.role === 'owner' ? 'violet' : 'gray'}>{m.role}</Badge>
                </td>
                <td className={tdClass}>{m.twoFactor ? 'On' : 'Off'}</td>
                <td className={tdClass}>{m.lastLoginAt ? formatTime(m.lastLoginAt) : 'Never'}</td>
                <td className={`${tdClass} text-right`}>
                  {canManage && m.role !== 'owner' && (
                    <ConfirmButton
                      label="Remove"
                      title={`Remove ${m.email}?`}
                      body="They are signed out at once and lose access to this account."
                      confirmLabel="Remove member"
                      onConfirm={async () => {
                        const r = await removeMemberAction(m.id);
                        toast(r.ok ? 'Member removed' : r.error.message, r.ok ? 'success' : 'error');
                        router.refresh();
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
            {invites.map((i) => (
              <tr key={i.id}>
                <td className={tdClass}>{i.email}</td>
                <td className={tdClass}>
                  <Badge tone="amber">invited</Badge>
                </td>
                <td className={tdClass}>—</td>
                <td className={tdClass}>expires {formatTime(i.expiresAt)}</td>
                <td className={`${tdClass} text-right`}>{canManage && <RevokeInvite id={i.id} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canManage ? (
        <form
          noValidate
          className="flex flex-wrap items-start gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const input = { email: String(new FormData(form).get('email') ?? '') };
            const parsed = InviteMemberInput.safeParse(input);
            const res = await submit(parsed.success ? null : `Email ${parsed.error.issues[0]!.message}`, () => inviteMemberAction(input));
            if (!res) return;
            form.reset();
            const url = res.data.link;
            setLink({ email: res.data.email, url: url.startsWith('/') ? `${window.location.origin}${url}` : url });
            router.refresh();
          }}
        >
          <div className="min-w-64 flex-1">
            <label htmlFor="invite-email" className="sr-only">
              Email to invite
            </label>
            <input
              id="invite-email"
              name="email"
              type="email"
              placeholder="teammate@example.com"
              className={inputClass}
              aria-invalid={!!error}
              aria-describedby="invite-msg"
            />
            <p id="invite-msg" className="min-h-5 text-xs text-red-600" role={error ? 'alert' : undefined}>
              {error ?? ''}
            </p>
          </div>
          <Button type="submit" disabled={busy}>
            Invite member
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-500">Only the owner can invite or remove members.</p>
      )}
      {link && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" role="alert">
          <p className="text-amber-900">
            Send this one-time link to {link.email} (valid 7 days). Members can work with invoices and webhooks but cannot create API keys or
            withdraw.
          </p>
          <div className="mt-2 flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate font-mono text-xs" data-testid="invite-link">
              {link.url}
            </code>
            <CopyButton value={link.url} />
          </div>
        </div>
      )}
    </div>
  );
}

function RevokeInvite({ id }: { id: string }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, run } = useFormSubmit();
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={async () => {
        const res = await run(() => revokeInvitationAction(id));
        toast(res.ok ? 'Invitation revoked' : res.error.message, res.ok ? 'success' : 'error');
        router.refresh();
      }}
    >
      Revoke
    </Button>
  );
}
