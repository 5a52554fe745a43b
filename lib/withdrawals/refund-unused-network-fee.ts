import { sql } from 'drizzle-orm';
import type { Withdrawal } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { chargedNetworkFee } from './batch-share';

/**
 * A withdrawal whose network cost is known only once it landed (Solana: the destination's token account rent is paid
 * only when the transfer had to create it), in the transaction that makes it COMPLETED: its network fee reserved
 * the most the transfer could cost, and it is charged `cost` (never more than the reserve), so the rest comes back
 * as a network_fee_refund. Once per withdrawal: the ledger's unique (kind, reference) index refuses a second one.
 */
export async function refundUnusedNetworkFee(tx: Db, w: Withdrawal, cost: Decimal): Promise<void> {
  const [row] = rowsOf<{ reserved: string | null; refunded: boolean }>(
    await tx.execute(sql`
      select (select -amount from ledger_entries where kind = 'network_fee' and reference_id = ${w.id})::text as reserved,
             exists (select 1 from ledger_entries where kind = 'network_fee_refund' and reference_id = ${w.id}) as refunded`),
  );
  if (!row || row.reserved === null || row.refunded) return;
  const refund = new Decimal(row.reserved).minus(chargedNetworkFee(row.reserved, cost));
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
