import { sql } from 'drizzle-orm';
import type { Settlement } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { PostEntryInput } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';

/**
 * The debits of the pulls that brought a settlement's money, posted with its credit (lib/settlements/finish-settlement.ts):
 * each confirmed pull of the invoice's period pays its gas (collection_pulls.network_fee, priced at its confirmation)
 * from the money it brought, as a sweep below the minimum pays its fee from what it moves. Not at the confirmation
 * itself: the pulled money is not the merchant's balance yet, and a new merchant's balance could not pay it. Once per
 * pull: one not charged yet (the ledger's unique (kind, reference) index refuses a second), never more than the
 * credit it rides on, so the credit never becomes a debit. Posted in the credit's transaction, on the invoice's lock.
 * The gas of the payer's USDC set-up by signature (collection_setups, setup_network_fee) is charged the same way, with
 * the first credit of one of the subscription's invoices after it was confirmed.
 */
export async function pullFeeEntries(tx: Db, s: Settlement): Promise<PostEntryInput[]> {
  if (s.kind !== 'invoice' && s.kind !== 'extra') return [];
  const pulls = rowsOf<{ id: string; fee: string; kind: string; type: string }>(
    await tx.execute(sql`
      select p.id, p.network_fee::text as fee, 'pull_network_fee' as kind, 'collection_pull' as type from collection_pulls p
       where p.invoice_id = ${s.invoiceId} and p.status = 'confirmed' and p.network_fee > 0
         and not exists (select 1 from ledger_entries l where l.kind = 'pull_network_fee' and l.reference_id = p.id)
      union all
      -- The payer's USDC set-up by signature (permit-tx.ts): its gas rides on the subscription's next credit.
      select c.id, c.network_fee::text, 'setup_network_fee', 'collection_setup' from collection_setups c
        join subscription_periods sp on sp.subscription_id = c.subscription_id and sp.invoice_id = ${s.invoiceId}
       where c.status = 'confirmed' and c.network_fee > 0
         and not exists (select 1 from ledger_entries l where l.kind = 'setup_network_fee' and l.reference_id = c.id)
       order by 1`),
  );
  let left = new Decimal(s.netAmount);
  const out: PostEntryInput[] = [];
  for (const p of pulls) {
    const take = Decimal.min(left, p.fee);
    if (take.lte(0)) break;
    left = left.minus(take);
    out.push({
      tenantId: s.tenantId,
      mode: s.mode,
      currency: s.token,
      amount: take.neg().toFixed(),
      kind: p.kind,
      referenceType: p.type,
      referenceId: p.id,
    });
  }
  return out;
}
