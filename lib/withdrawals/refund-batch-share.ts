import { sql } from 'drizzle-orm';
import type { Withdrawal } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { chargedNetworkFee } from './batch-share';

/**
 * A batched withdrawal completing, in the transaction that makes it COMPLETED: it reserved the network's flat fee
 * when debited (a payout is debited whole before anything is sent), and is charged its share of the batch's actual
 * cost (withdrawal_batches.item_share, never more than the flat fee), so the difference is credited back as a
 * network_fee_refund. Once per withdrawal: an existing refund is not posted again, and the ledger's unique
 * (kind, reference) index refuses a second one whatever races. A batch not priced keeps the flat fee.
 */
export async function refundBatchShare(tx: Db, w: Withdrawal): Promise<void> {
  if (!w.batchId) return;
  const [row] = rowsOf<{ reserved: string | null; share: string | null; refunded: boolean }>(
    await tx.execute(sql`
      select (select -amount from ledger_entries where kind = 'network_fee' and reference_id = ${w.id})::text as reserved,
             (select item_share from withdrawal_batches where id = ${w.batchId})::text as share,
             exists (select 1 from ledger_entries where kind = 'network_fee_refund' and reference_id = ${w.id}) as refunded`),
  );
  if (!row || row.reserved === null || row.share === null || row.refunded) return;
  const refund = new Decimal(row.reserved).minus(chargedNetworkFee(row.reserved, row.share));
  if (refund.lte(0)) return;
  await postLedgerEntries(tx, [
    {
      tenantId: w.tenantId,
      mode: w.mode,
      currency: w.token,
      amount: refund.toFixed(),
      kind: 'network_fee_refund',
      referenceType: 'withdrawal',
      referenceId: w.id,
    },
  ]);
}
