import { createHash, randomBytes } from 'node:crypto';
import { env } from '@/lib/env';

/** The browser session's cookie: its secret, sent only to /portal (the page and its cancel action). */
export const PORTAL_COOKIE = 'gw_portal';
/** A link works for 15 minutes, once; the session it starts, 30 minutes. */
export const LINK_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 30 * 60_000;

/** 256 random bits, base64url, and their sha256 (hex): only the hash is stored. */
export function newPortalSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashPortalSecret(secret) };
}

export const hashPortalSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** What a secret may look like (base64url); anything else is not looked up. */
export const isPortalSecret = (s: unknown): s is string => typeof s === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(s);

/** The portal link, absolute when PUBLIC_BASE_URL is set (as checkout URLs), else a path on this host. */
export function portalLink(token: string): string {
  return `${env().PUBLIC_BASE_URL?.replace(/\/$/, '') ?? ''}/portal/${token}`;
}
