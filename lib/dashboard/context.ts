import { cookies } from 'next/headers';
import { isStaffRole } from '@/lib/users/roles';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { ApiError } from '@/lib/api/errors';
import { auth } from '@/lib/auth/next-auth';
import { getActiveSession, type SessionContext } from '@/lib/auth/sessions';
import { getSignedInStaff } from '@/lib/console/context';
import { getDb, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { MODE_COOKIE } from './mode-cookie';
import { can, type Permission } from './permissions';

export interface DashboardContext extends SessionContext {
  db: Db;
  mode: Mode;
  /** What every domain call filters by: the session's tenant and the header's mode, never client input. */
  owner: { tenantId: string; mode: Mode; tenant: SessionContext['tenant'] };
}

/** The signed-in user's context for this request, or null (memoised per request). */
export const getDashboardContext = cache(async (): Promise<DashboardContext | null> => {
  const session = await auth();
  const sid = (session as { sid?: string } | null)?.sid;
  if (!sid) return null;
  const db = await getDb();
  const ctx = await getActiveSession(db, sid);
  if (!ctx) return null;
  // New accounts start in test mode, like Stripe: nothing real happens until the merchant switches.
  const mode: Mode = (await cookies()).get(MODE_COOKIE)?.value === 'live' ? 'live' : 'test';
  return { ...ctx, db, mode, owner: { tenantId: ctx.tenant.id, mode, tenant: ctx.tenant } };
});

/** For pages: the context, or a redirect to sign-in. */
export async function requireContext(permission?: Permission): Promise<DashboardContext> {
  const ctx = await getDashboardContext();
  // Support staff have no tenant: their home is the console.
  if (!ctx) redirect(isStaffRole((await getSignedInStaff())?.user.role ?? '') ? '/console' : '/sign-in');
  if (permission && !can(ctx.user.role, permission)) notFound();
  return ctx;
}

/** For server actions and the dashboard JSON routes (app/api/dashboard): the context, or an ApiError. */
export async function actionContext(permission?: Permission): Promise<DashboardContext> {
  const ctx = await getDashboardContext();
  if (!ctx) throw new ApiError('invalid_api_key', 'Your session has ended. Sign in again.');
  if (ctx.tenant.status !== 'active') throw new ApiError('tenant_suspended', 'This account is suspended.');
  if (permission && !can(ctx.user.role, permission)) throw new ApiError('forbidden', 'Only the account owner can do this.');
  return ctx;
}
