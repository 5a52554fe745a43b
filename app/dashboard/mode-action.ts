'use server';

import { cookies } from 'next/headers';
import { modeCookie } from '@/lib/dashboard/mode-cookie';

export async function setModeAction(mode: string): Promise<void> {
  (await cookies()).set(...modeCookie(mode));
}
