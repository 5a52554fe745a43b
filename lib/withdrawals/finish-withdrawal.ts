import { and, eq, inArray, sql } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { emitWithdrawalEvent } from './emit-withdrawal-event';
import { refundBatchShare } from './refund-batch-share';
import { refundUnusedNetworkFee } from './refund-unused-network-fee';
import { runWithdrawalFinalHooks } from './withdrawal-final-hooks';

/**
 * Final states, each in one transaction with its event and the hooks of the domains above
 * (lib/withdrawals/withdrawal-final-hooks.ts: a held payment's send-back). FAILED returns
 * what the creation took (amount + fee, less a returned invoice fee) through a ledger entry; the (kind, reference) unique index
 * and the status guard make a second call a no-op, never a double refund.
 */
export async function failWithdrawal(db: Db, id: string, reason: string): Promise<Withdrawal | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(withdrawals)
      .set({ status: 'FAILED', failureReason: reason.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(withdrawals.id, id), inArray(withdrawals.status, ['PENDING', 'PROCESSING'])))
      .returning();
    if (!row) return null;
    // Exchange withdrawals debited only amount (their feeAmount is the exchange's, inside the rate); an internal one gives
    // back exactly what its entries took (amount, fees, less an invoice fee a refund returned).
    const refund = row.kind === 'exchange' ? new Decimal(row.amount) : await debitedBy(tx, row.id);
    if (refund.gt(0)) {
      await postLedgerEntries(tx, [
        {
          tenantId: row.tenantId,
          mode: row.mode,
          currency: row.token,
          amount: refund.toFixed(),
          kind: 'withdrawal_refund',
          referenceType: 'withdrawal',
          referenceId: row.id,
        },
      ]);
    }
    await emitWithdrawalEvent(tx, row, 'withdrawal.failed');
    await runWithdrawalFinalHooks(tx, row);
    return row;
  });
}

/** What a withdrawal's own ledger entries took from the balance. */
async function debitedBy(tx: Db, withdrawalId: string): Promise<Decimal> {
  const [row] = rowsOf<{ sum: string }>(
    await tx.execute(sql`
      select coalesce(-sum(amount), 0)::text as sum from ledger_entries
       where reference_type = 'withdrawal' and reference_id = ${withdrawalId}
         and kind in ('withdrawal', 'withdrawal_fee', 'network_fee', 'invoice_fee_refund')`),
  );
  return new Decimal(row!.sum);
}

/**
 * COMPLETED, with its event and hooks; a batched item gets back what its flat network fee reserved beyond its share
 * of the batch, and one whose lane priced what its transfer cost (`networkCost`, in the token) what it reserved beyond that.
 */
export async function completeWithdrawal(db: Db, id: string, opts: { networkCost?: Decimal } = {}): Promise<Withdrawal | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(withdrawals)
      .set({ status: 'COMPLETED', confirmedAt: new Date(), pendingReason: null, updatedAt: new Date() })
      .where(and(eq(withdrawals.id, id), inArray(withdrawals.status, ['PENDING', 'PROCESSING'])))
      .returning();
    if (!row) return null;
    await refundBatchShare(tx, row);
    if (opts.networkCost) await refundUnusedNetworkFee(tx, row, opts.networkCost);
    await emitWithdrawalEvent(tx, row, 'withdrawal.completed');
    await runWithdrawalFinalHooks(tx, row);
    return row;
  });
}
