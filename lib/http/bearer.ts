import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** True when the Authorization header carries exactly `expected` as a bearer token (compared in constant time). */
export function bearerMatches(req: Request, expected: string | undefined): boolean {
  if (!expected) return false;
  const presented = req.headers.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(expected));
}
