import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { auditLog } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { rowsOf, type Db } from '@/lib/db';
import { textArray } from '@/lib/db/text-array';
import { formatAmount } from '@/lib/money';
import { SCREENED_FAMILIES } from './snapshot';

/** Identities (lib/chain/identities.ts) an import added, per family: what the report looks for. */
export type AddedEntries = Partial<Record<(typeof SCREENED_FAMILIES)[number], string[]>>;

export type TouchedKind = 'allowlist' | 'withdrawal' | 'refund_request' | 'payment' | 'held_payment';

/** One existing record that involves a newly listed address. */
export interface TouchedRecord {
  kind: TouchedKind;
  id: string;
  tenantId: string;
  tenantName: string;
  mode: string;
  address: string;
  amount: string | null;
  token: string | null;
  status: string | null;
  invoiceId: string | null;
}

/** The most rows one report shows (an import adds a handful of entries; this bounds a pathological one). */
export const REPORT_LIMIT = 500;

/**
 * Which existing records involve addresses an import newly listed (issue 46 §2, "existing rows"): allow-list entries,
 * open withdrawals and refunds (the lane stops them before signing), undecided payer refund proposals, payments
 * received from them (the invoices and balances they credited) and held payments from them. Rows keep their own
 * spelling of an address (EIP-55, lower-case, `41…`, `T…`): compared lower-cased against the identities and, for
 * TRON, against the `T…` form too. Read-only; printed by `gateway screening:import`, shown on /console/screening.
 */
export async function newlyListedReport(db: Db, added: AddedEntries): Promise<TouchedRecord[]> {
  const lower = [...(added.evm ?? []), ...(added.tron ?? [])].map((a) => a.toLowerCase());
  const base58 = (added.tron ?? []).map((a) => toBase58(a));
  if (lower.length === 0) return [];
  const hit = (col: SQL) => sql`(lower(${col}) = any(${textArray(lower)}) or ${col} = any(${textArray(base58)}))`;
  const rows = rowsOf<Record<string, string | null>>(
    await db.execute(sql`
      select r.*, t.name as tenant_name from (
        select 'allowlist' as kind, a.id, a.tenant_id, a.mode, a.address, null::text as amount, null::text as token,
               null::text as status, null::text as invoice_id
          from withdrawal_allowlist a where ${hit(sql`a.address`)}
        union all
        select 'withdrawal', w.id, w.tenant_id, w.mode, w.destination_address, w.amount::text, w.token, w.status, w.refund_of_invoice_id
          from withdrawals w where w.status in ('PENDING', 'PROCESSING') and ${hit(sql`w.destination_address`)}
        union all
        select 'refund_request', q.id, q.tenant_id, q.mode, q.destination_address, q.amount::text, null, q.status, q.invoice_id
          from refund_requests q where q.status = 'PENDING' and ${hit(sql`q.destination_address`)}
        union all
        select 'payment', c.id, c.tenant_id, c.mode, c.from_address, c.amount::text, c.token, i.status, c.invoice_id
          from chain_transfers c join invoices i on i.id = c.invoice_id where ${hit(sql`c.from_address`)}
        union all
        select 'held_payment', m.id, m.tenant_id, m.mode, m.from_address, m.amount::text, m.token, m.status, m.invoice_id
          from mismatched_payments m where ${hit(sql`m.from_address`)}
      ) r join tenants t on t.id = r.tenant_id
      order by t.name, r.kind, r.id
      limit ${REPORT_LIMIT}`),
  );
  return rows.map((r) => ({
    kind: r.kind as TouchedKind,
    id: r.id!,
    tenantId: r.tenant_id!,
    tenantName: r.tenant_name!,
    mode: r.mode!,
    address: r.address!,
    amount: r.amount === null ? null : formatAmount(r.amount),
    token: r.token,
    status: r.status,
    invoiceId: r.invoice_id,
  }));
}

/** The last import's added entries (kept in its audit entry) and its version; null before any import. */
export async function lastImportAdded(db: Db): Promise<{ version: string; listDate: string; at: Date; added: AddedEntries } | null> {
  const [row] = await db.select().from(auditLog).where(eq(auditLog.action, 'screening.list_imported')).orderBy(desc(auditLog.createdAt)).limit(1);
  if (!row) return null;
  const after = (row.after ?? {}) as { version?: string; listDate?: string; added?: AddedEntries };
  return { version: after.version ?? row.targetId, listDate: after.listDate ?? '', at: row.createdAt, added: after.added ?? {} };
}

/** The console's report: the last import and the records its newly listed addresses touch now (recomputed on each view). */
export async function lastImportReport(db: Db) {
  const last = await lastImportAdded(db);
  if (!last) return null;
  return { ...last, touched: await newlyListedReport(db, last.added) };
}
