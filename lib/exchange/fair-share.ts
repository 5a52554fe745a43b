/**
 * Who may spend how much of one exchange key's window. Pure, so the rules are
 * unit-tested without a database; weight-budget.ts applies them under its lock.
 *
 * - A tenant holds at most its share: `tenantShare`, cut to an equal part of
 *   the tenants' pool while several tenants spend in the window (never below
 *   one withdrawal: a quote and a create). Past it the tenant is told to come
 *   back (429) instead of queueing in front of everyone else.
 * - Tenants together leave `systemReserve` for system work (the order tracker),
 *   which may always spend that much even when tenants filled its ceiling.
 */

/** One withdrawal: a price (1) and a create (50). */
export const MIN_TENANT_SHARE = 51;

export interface Spend {
  weight: number;
  /** Null: system work. */
  tenantId: string | null;
  /** When it leaves the counted window (epoch ms). */
  until: number;
}

export interface ShareLimits {
  limit: number;
  tenantShare: number;
  systemReserve: number;
}

export interface Caller {
  tenantId: string | null;
  /** System callers only: spend only while the window holds at most this much (the tracker). */
  ceiling?: number;
}

/** The caller's share now: an equal part of the tenants' pool among the tenants spending in the window (the caller included). */
export function tenantShareNow(spends: Spend[], tenantId: string, l: ShareLimits): number {
  const active = new Set<string>([tenantId]);
  for (const s of spends) if (s.tenantId !== null) active.add(s.tenantId);
  const pool = l.limit - l.systemReserve;
  return Math.min(l.tenantShare, Math.max(MIN_TENANT_SHARE, Math.floor(pool / active.size)));
}

/** What the tenant has left of its own share (may be negative once shares shrank). */
export function shareLeft(spends: Spend[], tenantId: string, l: ShareLimits): number {
  const own = spends.reduce((a, s) => a + (s.tenantId === tenantId ? s.weight : 0), 0);
  return tenantShareNow(spends, tenantId, l) - own;
}

/** How much the caller may spend now. */
export function roomFor(spends: Spend[], c: Caller, l: ShareLimits): number {
  let total = 0;
  let system = 0;
  for (const s of spends) {
    total += s.weight;
    if (s.tenantId === null) system += s.weight;
  }
  if (c.tenantId === null) {
    const ceiling = Math.min(c.ceiling ?? l.limit, l.limit);
    return Math.max(ceiling - total, Math.min(l.systemReserve - system, l.limit - total));
  }
  const tenants = total - system;
  return Math.min(shareLeft(spends, c.tenantId, l), l.limit - l.systemReserve - tenants, l.limit - total);
}

/**
 * When `fits` will hold if nothing else is spent: spends leave the window
 * oldest first. Null if it never does (the caller asks for more than can ever fit).
 */
export function whenFits(spends: Spend[], fits: (rest: Spend[]) => boolean): number | null {
  const byUntil = [...spends].sort((a, b) => a.until - b.until);
  for (let i = 0; i < byUntil.length; i++) {
    if (fits(byUntil.slice(i + 1))) return byUntil[i]!.until;
  }
  return null;
}
