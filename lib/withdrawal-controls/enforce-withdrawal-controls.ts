import { and, eq, lte, sql } from 'drizzle-orm';
import { withdrawalAllowlist, type WithdrawalControls } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Asset } from '@/lib/config/rails';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getWithdrawalControls } from './get-withdrawal-controls';
import { normalizeAddress } from './schemas';

type Owner = { tenantId: string; mode: Mode };
/** An API key's owner carries its controls, read by its authentication query (lib/api-keys/authenticate.ts). */
type ControlledOwner = Owner & { withdrawalControls?: WithdrawalControls };

/** The controls as this request's authentication read them (if of this very tenant and mode), else read now: never a cached copy. */
async function controlsOf(db: Db, owner: ControlledOwner) {
  const c = owner.withdrawalControls;
  return c && c.tenantId === owner.tenantId && c.mode === owner.mode ? c : getWithdrawalControls(db, owner);
}
const DAY_MS = 24 * 60 * 60 * 1000;

/** The controls bind API keys only: the owner's dashboard session (with step-up) is what sets them. */
export const controlled = (actor?: AuditActor) => actor?.kind !== 'user';

/** Whether the address is an active (past cooling-off) allow-list entry of the tenant and mode. */
export async function isListedDestination(db: Db, owner: Owner, address: string, now = new Date()) {
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
  return hit !== undefined;
}

/** Refuses a destination that is not an active (past cooling-off) allow-list entry. */
export async function assertDestinationAllowed(db: Db, owner: Owner, address: string, now = new Date()) {
  if (!(await isListedDestination(db, owner, address, now))) {
    throw new ApiError(
      'destination_not_allowed',
      'The destination is not on this account’s withdrawal allow-list (or is still in its cooling-off period). The owner adds addresses in the dashboard.',
      [{ path: 'destinationAddress', message: 'not an active allow-list address' }],
    );
  }
}

/**
 * The USD value of one unit of each asset for the 24 h limit, which is one limit over every asset: it caps what
 * a leaked API key can take out in a day, and limits per asset would multiply that cap by the
 * number of assets enabled (docs/withdrawals.md). Both are USD stablecoins, counted 1:1 (their
 * spread is a fraction of a percent). `satisfies` makes a new asset a compile error here until
 * its value in USD is decided; one that is not a USD stablecoin would need a rate in the sum.
 */
export const LIMIT_USD_PER_UNIT = { USDT: 1, USDC: 1 } as const satisfies Record<Asset, 1>;
const COUNTED = Object.keys(LIMIT_USD_PER_UNIT);

const usedSql = (owner: Owner, now: Date) =>
  sql`select coalesce(sum(amount), 0)::text as used from withdrawals
       where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and status <> 'FAILED'
         and token in (${sql.join(
           COUNTED.map((a) => sql`${a}`),
           sql`, `,
         )})
         and created_at > ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz`;

/** The 24 h limit's use: amounts (not fees) of the mode's non-FAILED withdrawals in the counted assets, created in the last 24 h. */
export async function dailyLimitUsed(db: Db, owner: Owner, now = new Date()): Promise<string> {
  return rowsOf<{ used: string }>(await db.execute(usedSql(owner, now)))[0]?.used ?? '0';
}

/** Locks every balance row of the tenant and mode, in currency order (so two of these never deadlock). */
const lockBalancesSql = (owner: Owner) =>
  sql`select 1 from balances where tenant_id = ${owner.tenantId} and mode = ${owner.mode} order by currency for update`;

function assertWithinLimit(limit: string, used: string, amount: Decimal) {
  const remaining = Decimal.max(0, new Decimal(limit).minus(used));
  if (amount.gt(remaining)) {
    throw new ApiError(
      'withdrawal_limit_exceeded',
      `Withdrawal limit reached: ${formatAmount(remaining)} USD of the 24-hour limit of ${formatAmount(limit)} USD remains (${COUNTED.join(' and ')} count together, 1 token = 1 USD).`,
      [{ path: 'amount', message: `remaining ${remaining.toFixed()}` }],
    );
  }
  return remaining;
}

/**
 * The rolling 24 h limit, race-free across assets: first locks every balance row of the tenant
 * and mode (the row any debit of any asset updates), so the sum read by the next statement (a new
 * snapshot under READ COMMITTED) includes every withdrawal that committed before, and concurrent
 * withdrawals in different assets serialise here too. A row for the asset being withdrawn exists
 * whenever the debit can succeed, so a tenant without a USDT row still serialises (locking only
 * USDT's did not). Call inside the transaction that then debits.
 */
export async function enforceDailyLimit(tx: Db, owner: Owner, limit: string, amount: Decimal, now = new Date()) {
  await tx.execute(lockBalancesSql(owner));
  return assertWithinLimit(limit, await dailyLimitUsed(tx, owner, now), amount);
}

/**
 * enforceDailyLimit and the debit (`run`, one statement) in one round trip: the lock, the sum and the debit are
 * written together, in that order, and the server runs them one after another, so the sum's snapshot is still
 * taken after the lock is granted. Over the limit, the throw rolls the debit back with its transaction (or
 * savepoint). The three start in that order through the same driver path (lazy query promises started by
 * `.then`), which keeps their order on the wire; controls-next-request.test.ts checks it there.
 */
async function debitWithinDailyLimit<T>(tx: Db, owner: Owner, limit: string, amount: Decimal, run: (d: Db) => Promise<T>) {
  const locked = tx.execute(lockBalancesSql(owner)).then(() => undefined);
  const used = tx.execute(usedSql(owner, new Date())).then((r) => rowsOf<{ used: string }>(r)[0]?.used ?? '0');
  const [, sum, result] = await Promise.all([locked, used, run(tx)]);
  assertWithinLimit(limit, sum, amount);
  return result;
}

/**
 * The controls of one API withdrawal, checked before its debit: the allow-list
 * now; `hold` says it must wait for the owner's approval; `within` runs the
 * debit (with a limit set: in one transaction after the limit check).
 */
export async function prepareWithdrawalControls(
  db: Db,
  owner: ControlledOwner,
  actor: AuditActor | undefined,
  req: { amount: Decimal; destination: string },
  opts: { allowlist?: boolean } = {},
) {
  const free = { hold: false, within: <T>(d: Db, run: (d: Db) => Promise<T>) => run(d) };
  if (!controlled(actor)) return free;
  const c = await controlsOf(db, owner);
  if (c.allowlistEnabled && opts.allowlist !== false) await assertDestinationAllowed(db, owner, req.destination);
  const hold = c.approvalThreshold !== null && req.amount.gt(c.approvalThreshold);
  const limit = c.dailyLimit;
  if (limit === null) return { ...free, hold };
  return {
    hold,
    within: <T>(d: Db, run: (d: Db) => Promise<T>) => d.transaction((tx) => debitWithinDailyLimit(tx, owner, limit, req.amount, run)),
  };
}

/**
 * Refunds made by the auto-refund policy: the owner chose to send overpayments
 * to the address the payer gives, which is never on the allow-list, so the
 * allow-list does not apply; the 24 h limit and the approval threshold do.
 */
export const prepareAutoRefundControls = (
  db: Db,
  owner: ControlledOwner,
  actor: AuditActor | undefined,
  req: { amount: Decimal; destination: string },
) => prepareWithdrawalControls(db, owner, actor, req, { allowlist: false });

/**
 * Exchange withdrawals (API): the allow-list holds the payout address of the
 * other coin (`toAddress`), never a memo / tag (so a key's withdrawal with one is
 * refused); approval cannot hold them (the exchange's quote and deposit address
 * expire), so above the threshold they are refused; the limit
 * is checked now (no order for a withdrawal over it) and again, locked, by
 * `debit` inside the debit's transaction.
 */
export async function prepareExchangeControls(
  db: Db,
  owner: ControlledOwner,
  actor: AuditActor | undefined,
  req: { amount: Decimal; toAddress: string; tag?: string },
) {
  const none = { debit: async (_tx: Db, _amount: Decimal) => {} };
  if (!controlled(actor)) return none;
  const c = await controlsOf(db, owner);
  if (c.allowlistEnabled) {
    await assertDestinationAllowed(db, owner, req.toAddress);
    // An entry is an address, and a memo / destination tag says whose account at a shared (exchange) address is
    // credited: a key's listed address with a memo nobody listed would pay anyone's account (issue 42).
    if (req.tag) {
      throw new ApiError(
        'destination_not_allowed',
        'The allow-list holds addresses without a memo or destination tag, so an API key cannot make an exchange withdrawal with one while the allow-list is on; the owner can make it in the dashboard.',
        [{ path: 'tag', message: 'not allowed with the allow-list on' }],
      );
    }
  }
  if (c.approvalThreshold !== null && req.amount.gt(c.approvalThreshold)) {
    throw new ApiError(
      'approval_required',
      `Exchange withdrawals above the approval threshold of ${formatAmount(c.approvalThreshold)} USD cannot be made with an API key; the owner can make them in the dashboard.`,
      [{ path: 'amount', message: `above the approval threshold ${c.approvalThreshold}` }],
    );
  }
  const limit = c.dailyLimit;
  if (limit === null) return none;
  await db.transaction((tx) => enforceDailyLimit(tx, owner, limit, req.amount));
  return { debit: (tx: Db, amount: Decimal) => enforceDailyLimit(tx, owner, limit, amount).then(() => undefined) };
}
