import { isProduction } from '@/lib/env';
import { ModeSchema } from '@/lib/mode';

export const MODE_COOKIE = 'gw_mode';

/**
 * The dashboard's live/test switch as a cookie: [name, value, options] for
 * `cookies().set`. Secure in production (served only over HTTPS), like the
 * session cookie; httpOnly, since no script needs it.
 */
export function modeCookie(mode: string) {
  const value = ModeSchema.parse(mode);
  return [MODE_COOKIE, value, { httpOnly: true, secure: isProduction(), sameSite: 'lax', path: '/', maxAge: 365 * 86_400 }] as const;
}
