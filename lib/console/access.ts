import { isStaffRole } from '@/lib/users/roles';

/** Who may open the support console: support staff only; merchants' users get a 403, nobody a redirect loop. */
export type ConsoleAccess = 'ok' | 'sign-in' | 'forbidden';

export function consoleAccess(user: { role: string } | null | undefined): ConsoleAccess {
  if (!user) return 'sign-in';
  return isStaffRole(user.role) ? 'ok' : 'forbidden';
}
