'use server';

import { cookies } from 'next/headers';
import { ModeSchema } from '@/lib/tenants/mode';
import { MODE_COOKIE } from '@/lib/dashboard/context';

export async function setModeAction(mode: string): Promise<void> {
  const m = ModeSchema.parse(mode);
  (await cookies()).set(MODE_COOKIE, m, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 365 * 86_400 });
}
