import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import { auth } from '@/lib/auth/next-auth';
import { getDb, type Db } from '@/lib/db';
import { consoleAccess } from './access';
import { getStaffSession } from './get-staff-session';

export interface ConsoleContext {
  db: Db;
  sessionId: string;
  user: { id: string; email: string; role: string };
  /** Every console action is recorded under this actor. */
  actor: AuditActor;
}

/** The signed-in user whatever the role, or null (memoised per request). */
export const getSignedInStaff = cache(async () => {
  const session = await auth();
  const sid = (session as { sid?: string } | null)?.sid;
  if (!sid) return null;
  const db = await getDb();
  const row = await getStaffSession(db, sid);
  return row ? { db, ...row } : null;
});

function toContext(s: NonNullable<Awaited<ReturnType<typeof getSignedInStaff>>>): ConsoleContext {
  return { db: s.db, sessionId: s.sessionId, user: s.user, actor: { kind: 'support', id: s.user.id, label: s.user.email } };
}

/** For console pages: signed out → sign-in, merchants → the 403 page. */
export async function requireSupport(): Promise<ConsoleContext> {
  const s = await getSignedInStaff();
  const access = consoleAccess(s?.user);
  if (access === 'sign-in') redirect('/sign-in');
  if (access === 'forbidden') forbidden();
  return toContext(s!);
}

/** For console server actions and routes: checked again on every call, never trusted from the page. */
export async function supportActionContext(): Promise<ConsoleContext> {
  const s = await getSignedInStaff();
  const access = consoleAccess(s?.user);
  if (access === 'sign-in') throw new ApiError('invalid_api_key', 'Your session has ended. Sign in again.');
  if (access === 'forbidden') throw new ApiError('forbidden', 'The support console is for support staff only.');
  return toContext(s!);
}
