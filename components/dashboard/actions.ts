'use server';

// The dashboard shell's server actions. A 'use server' module may live anywhere; these sit beside the shared
// components that call them because components/ imports nothing from app/ (docs/architecture.md).

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { signOut } from '@/lib/auth/next-auth';
import { revokeSession } from '@/lib/auth/sessions';
import { getDashboardContext } from '@/lib/dashboard/context';
import { modeCookie } from '@/lib/dashboard/mode-cookie';

export async function setModeAction(mode: string): Promise<void> {
  (await cookies()).set(...modeCookie(mode));
}

export async function signOutAction(): Promise<void> {
  const ctx = await getDashboardContext();
  // The row is revoked too, so a copied cookie stops working at once.
  if (ctx) await revokeSession(ctx.db, ctx.sessionId);
  await signOut({ redirect: false });
  redirect('/sign-in');
}
