import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { PostEntryInput } from '@/lib/ledger/post-entry';
import type { Asset } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';

/** A pull's or a USDC set-up's gas not charged to the merchant yet, or not in full. */
export interface UnchargedGas {
  id: string;
  kind: 'pull_network_fee' | 'setup_network_fee';
  type: 'collection_pull' | 'collection_setup';
  currency: Asset;
  /** What is still to charge. */
  left: string;
  /** The parts already charged (0: none). */
  parts: number;
}

/*
 * The parts charged of one cost: the first part's reference is the cost's id, the n-th's `<id>:<n>` (n >= 2), so the
 * ledger's unique (kind, reference_id) index keeps each part once. Walked part by part on that index, whatever the collation.
 */
const charged = (kind: string, id: SQL) => sql`lateral (
  with recursive parts(n, amount) as (
    select 1, l.amount from ledger_entries l where l.kind = ${kind} and l.reference_id = ${id}
    union all
    select parts.n + 1, l.amount from parts
      join ledger_entries l on l.kind = ${kind} and l.reference_id = ${id} || ':' || (parts.n + 1)::text
  ) select coalesce(-sum(amount), 0) as paid, count(*)::int as parts from parts) ch`;

/**
 * The confirmed pulls and set-ups of a tenant and mode with gas still to charge, oldest first, that `pulls` and
 * `setups` select (SQL on `p` collection_pulls, `c` collection_setups, `s` their subscription, `ch` the parts charged).
 */
export async function unchargedGas(tx: Db, where: { tenantId: string; mode: Mode; pulls: SQL; setups: SQL }): Promise<UnchargedGas[]> {
  return rowsOf<UnchargedGas>(
    await tx.execute(sql`
      select p.id, 'pull_network_fee' as kind, 'collection_pull' as type, i.token as currency,
             (p.network_fee - ch.paid)::text as "left", ch.parts
        from collection_pulls p join invoices i on i.id = p.invoice_id join subscriptions s on s.id = p.subscription_id
        cross join ${charged('pull_network_fee', sql`p.id`)}
       where s.tenant_id = ${where.tenantId} and s.mode = ${where.mode}
         and p.status = 'confirmed' and p.network_fee > ch.paid and (${where.pulls})
      union all
      select c.id, 'setup_network_fee', 'collection_setup', s.token, (c.network_fee - ch.paid)::text, ch.parts
        from collection_setups c join subscriptions s on s.id = c.subscription_id
        cross join ${charged('setup_network_fee', sql`c.id`)}
       where s.tenant_id = ${where.tenantId} and s.mode = ${where.mode}
         and c.status = 'confirmed' and c.network_fee > ch.paid and (${where.setups})
       order by 1`),
  ).map((r) => ({ ...r, parts: Number(r.parts) }));
}

/** The debits charging `costs` in `currency`, in order, up to `cap` in all: the next part of each, whole or in part. */
export function gasCharges(costs: UnchargedGas[], owner: { tenantId: string; mode: Mode; currency: Asset }, cap: Decimal.Value): PostEntryInput[] {
  let left = new Decimal(cap);
  const out: PostEntryInput[] = [];
  for (const c of costs.filter((x) => x.currency === owner.currency)) {
    const take = Decimal.min(left, c.left);
    if (take.lte(0)) break;
    left = left.minus(take);
    out.push({
      ...owner,
      amount: take.neg().toFixed(),
      kind: c.kind,
      referenceType: c.type,
      referenceId: c.parts === 0 ? c.id : `${c.id}:${c.parts + 1}`,
    });
  }
  return out;
}
