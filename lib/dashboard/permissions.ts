/** What each dashboard role may change; everyone in the tenant may read. */
/** Owner only. */
type OwnerPermission = 'keys:manage' | 'team:manage' | 'settings:manage' | 'withdrawals:create' | 'secrets:reveal';
const MEMBER = ['invoices:create', 'webhooks:manage'] as const;

export type Permission = OwnerPermission | (typeof MEMBER)[number];

export function can(role: string, permission: Permission): boolean {
  if (role === 'owner') return true;
  if (role === 'member') return (MEMBER as readonly string[]).includes(permission);
  return false;
}
