import { and, eq, lte, sql } from 'drizzle-orm';
import { withdrawalAllowlist } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getWithdrawalControls } from './get-withdrawal-controls';
import { normalizeAddress } from './schemas';

type Owner = { tenantId: string; mode: Mode };
const DAY_MS = 24 * 60 * 60 * 1000;

/** The controls bind API keys only: the owner's dashboard session (with step-up) is what sets them. */
export const controlled = (actor?: AuditActor) => actor?.kind !== 'user';

/** Refuses a destination that is not an active (past cooling-off) allow-list entry. */
export async function assertDestinationAllowed(db: Db, owner: Owner, address: string, now = new Date()) {
  const [hit] = await db
    .select({ id: withdrawalAllowlist.id })
    .from(withdrawalAllowlist)
    .where(
      and(
        eq(withdrawalAllowlist.tenantId, owner.tenantId),
        eq(withdrawalAllowlist.mode, owner.mode),
        eq(withdrawalAllowlist.address, normalizeAddress(address)),
        lte(withdrawalAllowlist.activeAt, now),
      ),
    )
    .limit(1);
  if (!hit) {
    throw new ApiError(
      'destination_not_allowed',
      'The destination is not on this account’s withdrawal allow-list (or is still in its cooling-off period). The owner adds addresses in the dashboard.',
      [{ path: 'destinationAddress', message: 'not an active allow-list address' }],
    );
  }
}

/**
 * The rolling 24 h limit, race-free: locks the tenant's balance row first (the
 * same row every debit updates), so the sum read by the next statement — a new
 * snapshot under READ COMMITTED — includes every withdrawal that committed
 * before; concurrent requests serialise here. Call inside the transaction
 * that then debits. Counts amounts (not fees) of every non-FAILED withdrawal.
 */
export async function enforceDailyLimit(tx: Db, owner: Owner, limit: string, amount: Decimal, now = new Date()) {
  await tx.execute(sql`select 1 from balances where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = 'USDT' for update`);
  const [row] = rowsOf<{ used: string }>(
    await tx.execute(sql`select coalesce(sum(amount), 0)::text as used from withdrawals
                          where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and status <> 'FAILED'
                            and created_at > ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz`),
  );
  const remaining = Decimal.max(0, new Decimal(limit).minus(row?.used ?? '0'));
  if (amount.gt(remaining)) {
    throw new ApiError(
      'withdrawal_limit_exceeded',
      `Withdrawal limit reached: ${formatAmount(remaining)} USDT of the 24-hour limit of ${formatAmount(limit)} USDT remains.`,
      [{ path: 'amount', message: `remaining ${remaining.toFixed()}` }],
    );
  }
  return remaining;
}

/**
 * The controls of one API withdrawal, checked before its debit: the allow-list
 * now; `hold` says it must wait for the owner's approval; `within` runs the
 * debit (with a limit set: in one transaction after the limit check).
 */
export async function prepareWithdrawalControls(
  db: Db,
  owner: Owner,
  actor: AuditActor | undefined,
  req: { amount: Decimal; destination: string },
  opts: { allowlist?: boolean } = {},
) {
  const free = { hold: false, within: <T>(d: Db, run: (d: Db) => Promise<T>) => run(d) };
  if (!controlled(actor)) return free;
  const c = await getWithdrawalControls(db, owner);
  if (c.allowlistEnabled && opts.allowlist !== false) await assertDestinationAllowed(db, owner, req.destination);
  const hold = c.approvalThreshold !== null && req.amount.gt(c.approvalThreshold);
  const limit = c.dailyLimit;
  if (limit === null) return { ...free, hold };
  return {
    hold,
    within: <T>(d: Db, run: (d: Db) => Promise<T>) =>
      d.transaction(async (tx) => {
        await enforceDailyLimit(tx, owner, limit, req.amount);
        return run(tx);
      }),
  };
}

/**
 * Refunds made by the auto-refund policy: the owner chose to send overpayments
 * to the address the payer gives, which is never on the allow-list, so the
 * allow-list does not apply; the 24 h limit and the approval threshold do.
 */
export const prepareAutoRefundControls = (db: Db, owner: Owner, actor: AuditActor | undefined, req: { amount: Decimal; destination: string }) =>
  prepareWithdrawalControls(db, owner, actor, req, { allowlist: false });

/**
 * Exchange withdrawals (API): the allow-list holds the payout address of the
 * other coin (`toAddress`); approval cannot hold them (the exchange's quote and
 * deposit address expire), so above the threshold they are refused; the limit
 * is checked now (no order for a withdrawal over it) and again, locked, by
 * `debit` inside the debit's transaction.
 */
export async function prepareExchangeControls(db: Db, owner: Owner, actor: AuditActor | undefined, req: { amount: Decimal; toAddress: string }) {
  const none = { debit: async (_tx: Db, _amount: Decimal) => {} };
  if (!controlled(actor)) return none;
  const c = await getWithdrawalControls(db, owner);
  if (c.allowlistEnabled) await assertDestinationAllowed(db, owner, req.toAddress);
  if (c.approvalThreshold !== null && req.amount.gt(c.approvalThreshold)) {
    throw new ApiError(
      'approval_required',
      `Exchange withdrawals above the approval threshold of ${formatAmount(c.approvalThreshold)} USDT cannot be made with an API key; the owner can make them in the dashboard.`,
      [{ path: 'amount', message: `above the approval threshold ${c.approvalThreshold}` }],
    );
  }
  const limit = c.dailyLimit;
  if (limit === null) return none;
  await db.transaction((tx) => enforceDailyLimit(tx, owner, limit, req.amount));
  return { debit: (tx: Db, amount: Decimal) => enforceDailyLimit(tx, owner, limit, amount).then(() => undefined) };
}
