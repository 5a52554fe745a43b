/**
 * What each dashboard role may change; everyone in the tenant may read.
 * Members are the merchant's staff doing the daily work: invoices, webhooks,
 * and fulfilling or cancelling store orders. What decides where money goes or
 * how much customers pay stays with the owner: keys, team, settings,
 * withdrawals, secrets, the product catalogue, payment links and subscription plans (prices), and
 * what becomes of a held payment (credited to the merchant or sent back to the payer).
 * Subscribing a customer to an existing plan, cancelling a subscription and sending a customer their
 * portal link are daily work, like an invoice: members may.
 */
/** Owner only. */
type OwnerPermission =
  | 'keys:manage'
  | 'team:manage'
  | 'settings:manage'
  | 'withdrawals:create'
  | 'secrets:reveal'
  | 'products:manage'
  | 'payment-links:manage'
  | 'plans:manage'
  | 'held-payments:resolve';
const MEMBER = ['invoices:create', 'webhooks:manage', 'orders:manage', 'subscriptions:manage'] as const;

export type Permission = OwnerPermission | (typeof MEMBER)[number];

export function can(role: string, permission: Permission): boolean {
  if (role === 'owner') return true;
  if (role === 'member') return (MEMBER as readonly string[]).includes(permission);
  return false;
}
