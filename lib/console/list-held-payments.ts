import { and, count, desc, eq, isNotNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { invoices, heldPayments, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';

// An empty form field means "no filter", as on the dead-letters page.
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** The statuses a held payment goes through (held → credited, or refunding → refunded), offered in the page's filter. */
export const KNOWN_HELD_STATUSES = heldPayments.status.enumValues;

export const HeldPaymentFilter = z.preprocess(
  (raw) => (raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, blank(v)])) : raw),
  z.object({
    /**
     * A status, 'reorged' (kept after a reorg deeper than the confirmations dropped it, whatever its
     * status), or 'all'. Held is what may still need the merchant, so it is the default.
     */
    status: z
      .enum([...KNOWN_HELD_STATUSES, 'reorged', 'all'])
      .default('held')
      .catch('held'),
    mode: z.enum(['all', 'test', 'live']).default('all').catch('all'),
    tenantId: z.string().trim().max(64).optional().catch(undefined),
    limit: z.coerce.number().int().min(1).max(200).default(100).catch(100),
  }),
);
export type HeldPaymentFilter = z.infer<typeof HeldPaymentFilter>;

/**
 * Held payments across tenants (support only, read-only), newest first,
 * with the network and token the invoice asked for beside the ones used.
 * Capped at f.limit; `capped` says more rows match than are shown.
 */
export async function listHeldPayments(db: Db, f: HeldPaymentFilter) {
  const m = heldPayments;
  const where: SQL[] = [];
  if (f.status === 'reorged') where.push(isNotNull(m.reorgedAt));
  else if (f.status !== 'all') where.push(eq(m.status, f.status));
  if (f.mode !== 'all') where.push(eq(m.mode, f.mode));
  if (f.tenantId) where.push(eq(m.tenantId, f.tenantId));
  const rows = await db
    .select({
      id: m.id,
      tenantId: m.tenantId,
      tenantName: tenants.name,
      mode: m.mode,
      invoiceId: m.invoiceId,
      chain: m.chain,
      chainId: m.chainId,
      token: m.token,
      invoiceChain: invoices.chain,
      invoiceToken: invoices.token,
      mismatch: m.mismatch,
      amount: m.amount,
      fromAddress: m.fromAddress,
      toAddress: m.toAddress,
      txHash: m.txHash,
      status: m.status,
      reorgedAt: m.reorgedAt,
      createdAt: m.createdAt,
    })
    .from(m)
    .innerJoin(tenants, eq(tenants.id, m.tenantId))
    // Left join: there is no foreign key to invoices, and a missing invoice must not hide the money.
    .leftJoin(invoices, eq(invoices.id, m.invoiceId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(m.createdAt), desc(m.id))
    .limit(f.limit + 1);
  return { rows: rows.slice(0, f.limit).map((r) => ({ ...r, status: r.status as string })), capped: rows.length > f.limit };
}

/**
 * Held payments per mode, for the console home: money sitting on deposit addresses until a merchant
 * decides; and `reorged`, the payments a deep reorg dropped after money moved on them (both modes).
 */
export async function countHeldPayments(db: Db) {
  const [rows, [reorged]] = await Promise.all([
    db.select({ mode: heldPayments.mode, n: count() }).from(heldPayments).where(eq(heldPayments.status, 'held')).groupBy(heldPayments.mode),
    db.select({ n: count() }).from(heldPayments).where(isNotNull(heldPayments.reorgedAt)),
  ]);
  const of = (mode: string) => rows.find((r) => r.mode === mode)?.n ?? 0;
  return { test: of('test'), live: of('live'), total: of('test') + of('live'), reorged: reorged?.n ?? 0 };
}

/** "45 min", "3 h", "2 d": how long the payment has been recorded, coarse enough to read at a glance. */
export function formatAge(since: Date, now = new Date()): string {
  const min = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (min < 60) return `${min} min`;
  if (min < 48 * 60) return `${Math.floor(min / 60)} h`;
  return `${Math.floor(min / 1440)} d`;
}
