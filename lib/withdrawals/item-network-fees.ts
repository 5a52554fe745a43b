import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { textArray } from '@/lib/db/text-array';
import { Decimal } from '@/lib/money';

export interface ItemNetworkFee {
  /** The flat network fee debited with the item (its withdrawal's network_fee entry). */
  reserved: Decimal;
  /** What its completion credited back of it (network_fee_refund): the part its batch's share did not use. */
  refunded: Decimal;
  /** Why its batch kept the flat fee (withdrawal_batches.pricing_note); null otherwise. */
  note: string | null;
}

/** Per withdrawal id, the network fee its ledger entries reserved and gave back, read from the ledger itself. */
export async function itemNetworkFees(db: Db, withdrawalIds: string[]): Promise<Map<string, ItemNetworkFee>> {
  if (withdrawalIds.length === 0) return new Map();
  const rows = rowsOf<{ id: string; reserved: string; refunded: string; note: string | null }>(
    await db.execute(sql`
      select w.id,
             coalesce((select -l.amount from ledger_entries l where l.kind = 'network_fee' and l.reference_id = w.id), 0)::text as reserved,
             coalesce((select l.amount from ledger_entries l where l.kind = 'network_fee_refund' and l.reference_id = w.id), 0)::text as refunded,
             b.pricing_note as note
        from withdrawals w left join withdrawal_batches b on b.id = w.batch_id
       where w.id = any(${textArray(withdrawalIds)})`),
  );
  return new Map(rows.map((r) => [r.id, { reserved: new Decimal(r.reserved), refunded: new Decimal(r.refunded), note: r.note }]));
}

/** What an ended item was finally charged: nothing when it failed (everything came back), else reserved − refunded. */
export function finalNetworkFee(status: 'COMPLETED' | 'FAILED', f: ItemNetworkFee): Decimal {
  return status === 'FAILED' ? new Decimal(0) : f.reserved.minus(f.refunded);
}
