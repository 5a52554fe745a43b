import { sql } from 'drizzle-orm';
import { auditLog, withdrawals, type Withdrawal } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { auditRow } from '@/lib/audit/audit-row';
import type { AuditActor } from '@/lib/audit/record-audit';
import { requireRail } from '@/lib/chain/network';
import { notDepositAddressSql, parseDestination, refuseDepositAddress } from '@/lib/destinations/check-destination';
import { refuseBlacklisted } from '@/lib/destinations/refuse-blacklisted';
import { refuseScreenedByAdapters } from '@/lib/destinations/refuse-screened-by-adapters';
import { refuseUnreceivable } from '@/lib/destinations/refuse-unreceivable';
import { insertRowSql } from '@/lib/db/insert-row-sql';
import { outbox } from '@/lib/events/outbox';
import { newId } from '@/lib/ids';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { validateEndpointUrl } from '@/lib/webhooks/validate-endpoint-url';
import { parseWithdrawalAmount, withdrawalFee } from './amounts';
import { withdrawalEvent } from './emit-withdrawal-event';
import { assertNetworkMinimum, networkTerms } from './network-terms';
import { AWAITING_APPROVAL } from './pending-reasons';
import { MIN_WITHDRAWAL, type CreateWithdrawalInput } from './schemas';
import { withdrawalView } from './view';
import { withdrawalDebitSql } from '@/lib/ledger/withdrawal-debit-sql';
import { familyOf, requestedRail } from '@/lib/config/rails';

/**
 * The owner's withdrawal controls, passed in by the caller
 * (`prepareWithdrawalControls`, lib/withdrawal-controls, which sits above this
 * folder): `hold` says the withdrawal waits for approval; `within` runs the debit.
 */
export type PrepareWithdrawalControls = (
  db: Db,
  owner: { tenantId: string; mode: Mode },
  actor: AuditActor | undefined,
  req: { amount: Decimal; destination: string },
) => Promise<{ hold: boolean; within: <T>(d: Db, run: (d: Db) => Promise<T>) => Promise<T> }>;

/**
 * How a withdrawal is priced beside the defaults (percentage fee and the network's flat fee, both on top).
 * Refunds and sends-back of money the merchant never kept set these (lib/refunds/refund-pricing.ts).
 */
export interface WithdrawalOptions {
  /** A refund of this invoice (metadata.refundOfInvoiceId). */
  ofInvoiceId?: string;
  /** false: no percentage fee (refunds: giving a payer's money back is not a withdrawal of earnings). */
  percentFee?: boolean;
  /** Who pays the network fee: the balance, on top (default), or the recipient, taken from the amount. */
  networkFeeFrom?: 'balance' | 'amount';
  /** The invoice fee given back with a refund, credited (`invoice_fee_refund`) in the same statement. */
  invoiceFeeRefund?: Decimal;
  /**
   * The token's freeze list is read by the sending lane only, right before signing (it always is), not here: a
   * send-back created inside its sweep's credit transaction, where a refusal would leave swept money uncredited
   * and a chain read would hold the row locks. A frozen sender then fails the withdrawal and the payment is held again.
   */
  freezeListAtSend?: boolean;
  /**
   * false: never the Max rule (the fee is amount × rate + the network fee whatever the balance). A payout's items
   * (lib/payouts) are priced before their debit, so the batch's need per asset is known before anything moves.
   */
  maxRule?: boolean;
}

/** A withdrawal every check has passed, ready to be debited: its row, what it takes, and its single statement. */
export type PreparedWithdrawal = Awaited<ReturnType<typeof prepareWithdrawal>>;

/**
 * Creates an internal USDT withdrawal in one statement (one round trip, no
 * explicit transaction): debit amount + fee from the locked balance row
 * (withdrawalDebitSql: the fee is withdrawalFee's, or balance − amount when the
 * amount is that balance's Max), and, only if it moved the balance, insert the PENDING
 * withdrawal, its ledger entries, withdrawal.created and the audit row
 * (`from moved`). The update also refuses a destination that is one of our
 * deposit addresses. A single statement is atomic, and the balance row lock is
 * held only while it runs and commits, so a tenant's withdrawals serialise on
 * that alone and the balance never goes negative. When it writes nothing, a
 * second look says why (deposit address or insufficient balance).
 */
export async function createWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  input: CreateWithdrawalInput,
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
  opts: WithdrawalOptions = {},
) {
  const prepared = await prepareWithdrawal(db, owner, input, actor, prepareControls, opts);
  const moved = await debitPreparedWithdrawal(db, prepared);
  if (moved === null) {
    const {
      destination,
      row: { token },
    } = prepared;
    await refuseDepositAddress(db, destination);
    const available = await getBalance(db, { tenantId: owner.tenantId, mode: owner.mode, currency: token });
    throw new ApiError(
      'insufficient_balance',
      `Insufficient balance: available ${formatAmount(available)} ${token}, ${prepared.feeInside ? 'amount' : 'amount + fee'} needed ${formatAmount(prepared.total)} ${token}.`,
      [{ path: 'amount', message: `${formatAmount(prepared.total)} needed exceeds the available ${formatAmount(available)}` }],
    );
  }
  return withdrawalView({ ...prepared.row, feeAmount: moved.fee });
}

/**
 * Runs a prepared withdrawal's statement inside its controls (`within`: the 24 h limit, in a transaction, or a
 * savepoint when `db` is one). Null when it moved nothing (balance short, or a deposit address).
 */
export async function debitPreparedWithdrawal(db: Db, prepared: PreparedWithdrawal) {
  const moved = rowsOf<{ available: string; fee: string }>(await prepared.controls.within(db, (d) => d.execute(prepared.statement)));
  return moved[0] ?? null;
}

/**
 * Every check of a withdrawal, in order, before anything is written: amount, rail, the network's minimum, the
 * destination (form of its family, ours, screening), the token's freeze list, postBackUrl, the fee, and the owner's
 * controls (allow-list now; approval and the 24 h limit through `controls`). Returns the row and its single statement.
 */
export async function prepareWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  input: CreateWithdrawalInput,
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
  opts: WithdrawalOptions = {},
) {
  const amount = parseWithdrawalAmount(input.amount);
  // The rail to pay on (400 when not enabled): its network's lane sends it, its token's balance pays it.
  const network = requireRail(owner.mode, requestedRail(input), []);
  const terms = networkTerms(network);
  assertNetworkMinimum(amount, terms, opts.ofInvoiceId ? 'refund' : 'withdrawal');
  const destination = parseDestination(network, input.destinationAddress, 'destinationAddress', !opts.freezeListAtSend);
  // The token's freeze list (USDT, USDC: lib/config/rails.ts), read before anything is written (a failed read is a 503).
  if (!opts.freezeListAtSend) await refuseBlacklisted(network, destination);
  // Whether the chain lets it receive the token at all (Solana's destination rule), likewise.
  if (!opts.freezeListAtSend) await refuseUnreceivable(network, destination);
  // The optional screening adapters, likewise (off by default; a failed read is a 503, never a pass).
  if (!opts.freezeListAtSend) await refuseScreenedByAdapters(familyOf(network.chain), destination);
  // postBackUrl follows the spec: HTTPS only, never a private or local host.
  const postBackUrl = input.postBackUrl === undefined ? null : validateEndpointUrl(input.postBackUrl, 'live', 'postBackUrl');
  const rate = opts.percentFee === false ? '0' : owner.tenant.withdrawalFeeRate;
  const feeInside = opts.networkFeeFrom === 'amount';
  const credit = opts.invoiceFeeRefund ?? new Decimal(0);
  const fee = withdrawalFee(amount, rate, terms.networkFee);
  // What the recipient gets: the amount, or, when the fee is taken from it, the amount less the fee.
  const netAmount = feeInside ? amount.minus(fee) : amount;
  if (netAmount.lt(MIN_WITHDRAWAL)) {
    throw new ApiError(
      'amount_below_minimum',
      `amount: ${formatAmount(amount)} ${terms.token} does not cover the network fee on ${terms.name} (${formatAmount(fee)} ${terms.token})`,
      [{ path: 'amount', message: `must be more than the network fee ${formatAmount(fee)}` }],
    );
  }
  const total = amount.plus(feeInside ? 0 : fee).minus(credit);
  // The owner's controls for API keys (allow-list, 24 h limit, approval): see lib/withdrawal-controls.
  const controls = await prepareControls(db, owner, actor, { amount, destination });
  const now = new Date();
  // The row as the statement stores it; columns not written here take these same defaults.
  const row: Withdrawal = {
    id: newId('withdrawal', now.getTime()),
    tenantId: owner.tenantId,
    mode: owner.mode,
    kind: 'internal',
    amount: amount.toFixed(),
    feeAmount: fee.toFixed(),
    netAmount: netAmount.toFixed(),
    status: 'PENDING',
    destinationAddress: destination,
    chainId: network.chainId,
    chain: network.chain,
    token: network.token,
    postBackUrl,
    // A refund says which invoice it gives back to, in its record and in its events (metadata is part of both).
    metadata: opts.ofInvoiceId ? { refundOfInvoiceId: opts.ofInvoiceId } : null,
    refundOfInvoiceId: opts.ofInvoiceId ?? null,
    pendingReason: controls.hold ? AWAITING_APPROVAL : null,
    failureReason: null,
    nonce: null,
    nonceUsedAtBlock: null,
    txExpiration: null,
    refBlockNumber: null,
    batchable: false,
    batchId: null,
    signedTx: null,
    txHash: null,
    replacedTxHashes: [],
    gasPrice: null,
    broadcastAt: null,
    confirmedAt: null,
    sendAttempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const { id, tenantId, mode, kind, destinationAddress, chainId, chain, token, createdAt, updatedAt, nextAttemptAt } = row;
  // Any network: a deposit address is the same address on every EVM chain, and money sent there would come back as a payment.
  const guard = notDepositAddressSql(destination);
  const debit = withdrawalDebitSql({
    tenantId,
    mode,
    withdrawalId: id,
    amount,
    rate,
    networkFee: terms.networkFee,
    fee,
    guard,
    currency: token,
    feeInside,
    // Only a plain withdrawal: a refund's fee is what it is, the Max rule would hand it a sub-cent rest of the balance.
    maxRule: opts.maxRule !== false && !opts.ofInvoiceId && opts.percentFee !== false && !feeInside && credit.isZero(),
    credit,
  });
  // The fee is settled inside the statement (Max rule): the rows below carry it as an expression.
  const feeNumeric = sql`moved.fee`;
  const withFee = <T extends Record<string, unknown>>(json: T) =>
    sql`jsonb_set(${JSON.stringify(json)}::jsonb, '{feeAmount}', to_jsonb(${debit.feeText}))`;
  const inserted = {
    tenantId,
    mode,
    kind,
    amount: row.amount,
    feeAmount: feeNumeric,
    netAmount: row.netAmount,
    destinationAddress,
    chainId,
    chain,
    token,
    postBackUrl,
    ...(opts.ofInvoiceId ? { metadata: row.metadata, refundOfInvoiceId: row.refundOfInvoiceId } : {}),
    pendingReason: row.pendingReason,
    createdAt,
    updatedAt,
    nextAttemptAt,
  };
  const event = outbox.row(withdrawalEvent(row, 'withdrawal.created'));
  const audit = actor && auditRow(actor, merchantAuditEntry(owner, { action: 'withdrawal.created', withdrawal: withdrawalView(row) }), now);
  const statement = sql`
      with ${debit.ctes},
      w as (${insertRowSql(withdrawals, { id, ...inserted }, { from: 'moved' }).sql}),
      e as (${outbox.insertSql(event, { from: 'moved', data: withFee(event.data) })})
      ${audit ? sql`, a as (${insertRowSql(auditLog, { ...audit, after: withFee(audit.after!) }, { from: 'moved' }).sql})` : sql``}
      select available::text as available, fee::text as fee from moved`;
  return { row, destination, fee, total, feeInside, controls, statement };
}
