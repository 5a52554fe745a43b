import { randomBytes } from 'node:crypto';

/** whsec_ plus base64url of 32 random bytes (the issue asks for at least 24). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
