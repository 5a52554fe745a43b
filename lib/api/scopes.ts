import { z } from 'zod';

/** The spec's five scopes plus the two read scopes and orders:manage it leaves open, and subscriptions (issue 48). */
export const SCOPES = [
  'invoices:read',
  'invoices:write',
  'withdrawals:read',
  'withdrawals:write',
  'webhooks:manage',
  'orders:manage',
  'subscriptions:read',
  'subscriptions:write',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export const ScopeSchema = z.enum(SCOPES, { error: () => `must be one of: ${SCOPES.join(', ')}` });

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('admin') || granted.includes(needed);
}
