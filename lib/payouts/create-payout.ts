import { inArray, sql } from 'drizzle-orm';
import { payoutItems, payouts, withdrawals } from '@/db/schema';
import { ApiError, type ErrorDetail } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Asset } from '@/lib/config/rails';
import { rowsOf, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { Decimal, formatAmount } from '@/lib/money';
import { debitPreparedWithdrawal, type PrepareWithdrawalControls, type PreparedWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import { batchHeld, withBatchHold } from './batch-hold';
import { getPayout } from './get-payout';
import { preparePayoutItems, rowDetails, type PayoutOwner } from './prepare-payout-items';
import type { CreatePayoutInput, PayoutView } from './schemas';

/** Rows of payout_items per INSERT (11 parameters each, far below PostgreSQL's 65,535). */
const INSERT_CHUNK = 500;

/**
 * POST /v1/payouts: every item checked first (preparePayoutItems: any refused row refuses the batch), then, in ONE
 * transaction, the tenant's balance rows locked (every asset, in currency order, as the 24 h limit locks them, so two
 * batches or a batch and a withdrawal serialise and never deadlock), the need per asset compared with what is there
 * (short: refused naming each shortfall, nothing written), and each item debited by its own withdrawal's statement
 * (its ledger entries, withdrawal.created and audit row; its controls' `within` runs as a savepoint, so the 24 h
 * limit counts the items before it). The items are ordinary PENDING withdrawals: the rails' lanes send them; above
 * the approval threshold (the batch's total, for keys) every item waits for ONE approval of the payout.
 */
export async function createPayout(
  db: Db,
  owner: PayoutOwner,
  input: CreatePayoutInput,
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
): Promise<PayoutView> {
  const held = await batchHeld(db, owner, actor, input.items);
  const prepared = await preparePayoutItems(db, owner, input.items, actor, withBatchHold(prepareControls, held));
  const id = newId('payout');
  try {
    await db.transaction(async (tx) => {
      await refuseShortfall(tx, owner, prepared);
      await tx.insert(payouts).values({ id, tenantId: owner.tenantId, mode: owner.mode, itemCount: prepared.length });
      for (const [i, p] of prepared.entries()) {
        const moved = await debitPreparedWithdrawal(tx, p).catch((err: unknown) => {
          throw err instanceof ApiError && err.status < 500 ? new ApiError(err.code, `items[${i}]: ${err.message}`, rowDetails(i, err)) : err;
        });
        // The balances are locked and sufficient: only the statement's deposit-address guard can refuse now
        // (an address issued to an invoice since the item was checked).
        if (!moved) {
          const message = 'is a deposit address of this gateway: money sent there would come back as a payment';
          throw new ApiError('destination_deposit_address', `items[${i}].destinationAddress: ${message}`, [
            { path: `items[${i}].destinationAddress`, message, code: 'destination_deposit_address' },
          ]);
        }
      }
      const rows = prepared.map((p, position) => ({
        id: newId('payoutItem'),
        payoutId: id,
        tenantId: owner.tenantId,
        mode: owner.mode,
        position,
        reference: input.items[position]!.reference,
        withdrawalId: p.row.id,
        chain: p.row.chain,
        token: p.row.token,
      }));
      for (let k = 0; k < rows.length; k += INSERT_CHUNK) await tx.insert(payoutItems).values(rows.slice(k, k + INSERT_CHUNK));
      // Where the network has a disperse contract, its lane sends these together (lib/withdrawals/send-batches.ts).
      const ids = prepared.map((p) => p.row.id);
      for (let k = 0; k < ids.length; k += INSERT_CHUNK) {
        await tx
          .update(withdrawals)
          .set({ batchable: true })
          .where(inArray(withdrawals.id, ids.slice(k, k + INSERT_CHUNK)));
      }
    });
  } catch (err) {
    // A concurrent payout took one of the references between the check and the insert.
    if (isUniqueViolation(err, 'payout_items_reference_uq')) {
      throw new ApiError('duplicate_reference', 'A reference of this payout was used by another payout meanwhile; nothing was debited.');
    }
    throw err;
  }
  return getPayout(db, owner, id);
}

/** Locks the tenant's balance rows and refuses the batch, naming each asset's shortfall, when any asset is short. */
async function refuseShortfall(tx: Db, owner: PayoutOwner, prepared: PreparedWithdrawal[]) {
  const locked = rowsOf<{ currency: string; available: string }>(
    await tx.execute(sql`select currency, available::text as available from balances
                          where tenant_id = ${owner.tenantId} and mode = ${owner.mode} order by currency for update`),
  );
  const available = new Map<string, Decimal>(locked.map((r) => [r.currency, new Decimal(r.available)]));
  const need = new Map<Asset, { amount: Decimal; fee: Decimal }>();
  for (const p of prepared) {
    const n = need.get(p.row.token) ?? { amount: new Decimal(0), fee: new Decimal(0) };
    need.set(p.row.token, { amount: n.amount.plus(p.row.amount), fee: n.fee.plus(p.fee) });
  }
  const short: ErrorDetail[] = [];
  for (const [asset, n] of [...need].sort(([a], [b]) => a.localeCompare(b))) {
    const total = n.amount.plus(n.fee);
    const have = available.get(asset) ?? new Decimal(0);
    if (total.lte(have)) continue;
    short.push({
      path: `balance.${asset}`,
      message: `needed ${formatAmount(total)} ${asset} (amounts ${formatAmount(n.amount)} + fees ${formatAmount(n.fee)}), available ${formatAmount(have)}, short ${formatAmount(total.minus(have))}`,
      code: 'insufficient_balance',
    });
  }
  if (short.length > 0) {
    throw new ApiError(
      'insufficient_balance',
      `Insufficient balance for this payout; nothing was debited. ${short.map((d) => `${d.path}: ${d.message}`).join('; ')}.`,
      short,
    );
  }
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (pg.code === '23505' && (pg.constraint_name === constraint || pg.constraint === constraint)) return true;
  }
  return false;
}
