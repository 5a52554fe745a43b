import { findInvitation } from '@/lib/auth/invitations';
import { getDb } from '@/lib/db';
import { AcceptInviteForm } from './accept-invite-form';

// Reads configuration and the session at request time, never at build time.
export const dynamic = 'force-dynamic';
export const metadata = { title: 'Join your team' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const inv = await findInvitation(await getDb(), token);
  if (!inv) {
    return (
      <>
        <h1 className="text-xl font-semibold text-slate-900">Invitation not valid</h1>
        <p className="mt-2 text-sm text-slate-500">This link is invalid, was already used or has expired. Ask the account owner for a new one.</p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-xl font-semibold text-slate-900">Join the team</h1>
      <p className="mt-1 text-sm text-slate-500">
        Choose a password for <strong className="text-slate-800">{inv.email}</strong>.
      </p>
      <AcceptInviteForm token={token} />
    </>
  );
}
