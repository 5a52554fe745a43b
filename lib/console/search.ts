import { eq, ilike, or, sql, type Column, type SQL } from 'drizzle-orm';
import { chainTransfers, events, invoices, orders, settlements, settlementTxs, tenants, webhookDeliveries, withdrawals } from '@/db/schema';
import { addressFamilyOf, txIdRuleOf } from '@/lib/chain/address-rules';
import { storedAddress } from '@/lib/chain/deposit-keys';
import type { Db } from '@/lib/db';
import { chainGone } from '@/lib/invoices/chain-gone';
import { formatAmount } from '@/lib/money';

export interface SearchHit {
  kind: 'tenant' | 'invoice' | 'withdrawal' | 'event' | 'delivery' | 'order' | 'payment' | 'settlement';
  id: string;
  tenantId: string;
  mode?: string;
  /** One line for the result list: status, amount, what matched. */
  summary: string;
  /** An invoice of an earlier run's local chain (chainGone): the console marks it as the dashboard does. */
  notWatched?: boolean;
}

const LIMIT = 25;
/** The columns hold 18 decimals; a summary shows the amount as the API does, in its own token. */
const units = (amount: string, token: string) => `${formatAmount(amount)} ${token}`;

/** The stored form of a pasted address, or null when it is not one (a T… with a bad checksum). */
function storedOrNull(q: string): string | null {
  try {
    return storedAddress(q).toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Console search across every tenant. Ids are recognised by prefix and looked
 * up by primary key; addresses and hashes by shape; anything else is a tenant
 * name or slug, an invoice or order externalId.
 */
export async function searchConsole(db: Db, raw: string): Promise<SearchHit[]> {
  const q = raw.trim();
  if (q.length < 2 || q.length > 200) return [];
  const hits: SearchHit[] = [];
  const inv = (r: typeof invoices.$inferSelect, why: string) =>
    hits.push({
      kind: 'invoice',
      id: r.id,
      tenantId: r.tenantId,
      mode: r.mode,
      summary: `${r.status} · ${units(r.amountExpected, r.token)} · ${why}`,
      notWatched: chainGone(r),
    });

  if (q.startsWith('ten_')) {
    for (const t of await db.select().from(tenants).where(eq(tenants.id, q)))
      hits.push({ kind: 'tenant', id: t.id, tenantId: t.id, summary: `${t.name} · ${t.status}` });
  } else if (q.startsWith('inv_')) {
    for (const r of await db.select().from(invoices).where(eq(invoices.id, q))) inv(r, 'invoice id');
  } else if (q.startsWith('wd_')) {
    for (const w of await db.select().from(withdrawals).where(eq(withdrawals.id, q)))
      hits.push({ kind: 'withdrawal', id: w.id, tenantId: w.tenantId, mode: w.mode, summary: `${w.status} · ${units(w.amount, w.token)}` });
  } else if (q.startsWith('evt_')) {
    for (const e of await db.select().from(events).where(eq(events.id, q)))
      hits.push({ kind: 'event', id: e.id, tenantId: e.tenantId, mode: e.mode, summary: `${e.type} · about ${e.subjectId ?? '—'}` });
  } else if (q.startsWith('whd_')) {
    for (const d of await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, q)))
      hits.push({
        kind: 'delivery',
        id: d.id,
        tenantId: d.tenantId,
        mode: d.mode,
        summary: `${d.status} · ${d.eventType} · ${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`,
      });
  } else if (q.startsWith('ord_')) {
    for (const o of await db.select().from(orders).where(eq(orders.id, q)))
      hits.push({ kind: 'order', id: o.id, tenantId: o.tenantId, mode: o.mode, summary: `${o.status} · invoice ${o.invoiceId}` });
  } else if (addressFamilyOf(q)) {
    // Any family's wire form (EVM `0x…` in any case, TRON `T…`): invoices store the stored form, withdrawals the wire form.
    for (const r of await db
      .select()
      .from(invoices)
      .where(sql`lower(${invoices.depositAddress}) = ${storedOrNull(q)}`)
      .limit(LIMIT))
      inv(r, 'deposit address');
    for (const w of await db
      .select()
      .from(withdrawals)
      .where(sql`lower(${withdrawals.destinationAddress}) = ${q.toLowerCase()}`)
      .limit(LIMIT))
      hits.push({
        kind: 'withdrawal',
        id: w.id,
        tenantId: w.tenantId,
        mode: w.mode,
        summary: `${w.status} · ${units(w.amount, w.token)} · destination`,
      });
  } else if (txIdRuleOf(q)) {
    // A transaction id of any family (its rule: lib/chain/address-rules.ts): hex in any case, Base58 exactly as given.
    const exact = !txIdRuleOf(q)!.caseInsensitive;
    const h = exact ? q : q.toLowerCase();
    const same = (column: SQL | Column) => (exact ? sql`${column} = ${h}` : sql`lower(${column}) = ${h}`);
    for (const t of await db.select().from(chainTransfers).where(same(chainTransfers.txHash)).limit(LIMIT))
      hits.push({
        kind: 'payment',
        id: t.invoiceId,
        tenantId: t.tenantId,
        mode: t.mode,
        summary: `payment of ${units(t.amount, t.token)} to invoice ${t.invoiceId}`,
      });
    for (const w of await db
      .select()
      .from(withdrawals)
      .where(or(same(withdrawals.txHash), sql`${h} = any(${withdrawals.replacedTxHashes})`))
      .limit(LIMIT))
      hits.push({
        kind: 'withdrawal',
        id: w.id,
        tenantId: w.tenantId,
        mode: w.mode,
        summary: `${w.status} · ${units(w.amount, w.token)} · transaction`,
      });
    const sweeps = await db
      .select({ step: settlementTxs.step, invoiceId: settlements.invoiceId, tenantId: settlements.tenantId, mode: settlements.mode })
      .from(settlementTxs)
      .innerJoin(settlements, eq(settlements.id, settlementTxs.settlementId))
      .where(same(settlementTxs.txHash))
      .limit(LIMIT);
    for (const s of sweeps)
      hits.push({
        kind: 'settlement',
        id: s.invoiceId,
        tenantId: s.tenantId,
        mode: s.mode,
        summary: `settlement ${s.step} transaction of invoice ${s.invoiceId}`,
      });
  } else {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    for (const t of await db
      .select()
      .from(tenants)
      .where(or(ilike(tenants.name, like), eq(tenants.slug, q.toLowerCase())))
      .limit(LIMIT))
      hits.push({ kind: 'tenant', id: t.id, tenantId: t.id, summary: `${t.name} · /store/${t.slug} · ${t.status}` });
    for (const r of await db.select().from(invoices).where(eq(invoices.externalId, q)).limit(LIMIT)) inv(r, `externalId ${q}`);
  }
  return hits;
}
