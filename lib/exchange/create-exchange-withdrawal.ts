import { eq, sql } from 'drizzle-orm';
import { exchangeOrders } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { requireRail } from '@/lib/chain/network';
import { refuseBlacklisted } from '@/lib/destinations/refuse-blacklisted';
import { refuseScreened } from '@/lib/destinations/refuse-screened';
import { refuseScreenedByAdapters } from '@/lib/destinations/refuse-screened-by-adapters';
import { addressFamilyOf } from '@/lib/chain/address-rules';
import { familyOf, requestedRail, type Asset } from '@/lib/config/rails';
import { env } from '@/lib/env';
import { newId } from '@/lib/ids';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { insertWithdrawal } from '@/lib/withdrawals/insert-withdrawal';
import { withdrawalView } from '@/lib/withdrawals/view';
import { prepareExchangeControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { checkPair } from './check-pair';
import { assertEvmDeposit, createRecordedOrder } from './create-recorded-order';
import { exchangeFeeOf } from './exchange-fee';
import { requireExchange } from './get-exchange';
import { requireRailCurrency } from './require-rail-currency';
import type { ExchangeWithdrawalInput } from './schemas';
import { sendWithdrawalNow } from './send-withdrawal-now';
import { orderRecord } from './view';

async function availableBalance(db: Db, owner: { tenantId: string; mode: Mode }, currency: Asset) {
  const [row] = rowsOf<{ available: string }>(
    await db.execute(sql`select available::text as available from balances
                          where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = ${currency}`),
  );
  return new Decimal(row?.available ?? '0');
}

const short = (need: Decimal, have: Decimal, asset: Asset) =>
  new ApiError(
    'insufficient_balance',
    `Insufficient balance: available ${formatAmount(have)} ${asset}, the exchange needs ${formatAmount(need)} ${asset}.`,
    [{ path: 'amount', message: `needs ${formatAmount(need)} ${asset}, available ${formatAmount(have)}` }],
  );

/**
 * POST /v1/withdrawals/exchange/withdrawal: checks the rail (chain/token,
 * default BSC USDT), pair and amount, creates the order, then in one
 * transaction debits from.amount (fee included) from that asset's balance,
 * inserts the exchange withdrawal (to the order's deposit address, on the
 * rail), its event and audit row, and marks the order open; then sends the
 * token through that network's hot wallet lane and waits (bounded) for its
 * confirmations.
 */
export async function createExchangeWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  input: ExchangeWithdrawalInput,
  actor?: AuditActor,
) {
  // The rail paid from, as for plain withdrawals: 400 when not enabled, then (after the exchange's 503) 503 when its lane cannot send.
  const rail = requestedRail(input);
  requireRail(owner.mode, rail, []);
  const client = requireExchange(db, owner.mode, owner.tenantId);
  const net = requireRail(owner.mode, rail, ['rpcUrl', 'tokenAddress', 'hotWalletKey']);
  // What the gateway sends is the rail's token, so fromCcy must be the exchange's code for it.
  const from = await requireRailCurrency(client, owner.mode, net, 'token');
  if (input.fromCcy !== from.code) {
    throw new ApiError('validation_failed', `fromCcy must be ${from.code}: the withdrawal is paid from the ${net.token} balance on ${net.chain}.`, [
      { path: 'fromCcy', message: `must be ${from.code} (${net.token} on ${net.chain})` },
    ]);
  }
  // Only the exchange's own fields are sent (never the chain/token extension).
  const { type, fromCcy, toCcy, direction, amount, toAddress, tag } = input;
  // Where the exchange pays out, when it is an address of a family we screen (an EVM or TRON coin): before any order.
  const payoutFamily = addressFamilyOf(toAddress);
  if (payoutFamily) {
    refuseScreened(payoutFamily, toAddress, 'toAddress');
    await refuseScreenedByAdapters(payoutFamily, toAddress, 'toAddress');
  }
  const quote = await checkPair(client, owner.mode, { type, fromCcy, toCcy, direction, amount });
  const quoted = new Decimal(quote.from.amount);
  const before = await availableBalance(db, owner, net.token);
  if (before.lt(quoted)) throw short(quoted, before, net.token); // no create (50 weight) for a withdrawal that cannot be paid
  const controls = await prepareExchangeControls(db, owner, actor, { amount: quoted, toAddress: input.toAddress, tag: input.tag });

  const { row: exo, order } = await createRecordedOrder(db, client, owner, 'withdrawal', { type, fromCcy, toCcy, direction, amount, toAddress, tag });
  const debit = new Decimal(order.from.amount);
  try {
    assertEvmDeposit(order);
    // The hot wallet pays the exchange's deposit address on chain: never one the token's issuer froze (400, or 503 unread).
    await refuseBlacklisted(net, EVM_ADDRESS_CODEC.parse(order.from.address), 'depositAddress');
    refuseScreened(familyOf(net.chain), order.from.address, 'depositAddress');
    await refuseScreenedByAdapters(familyOf(net.chain), order.from.address, 'depositAddress');
    // A 6-decimal token cannot carry more: sending a rounded amount would leave the order short.
    if (debit.decimalPlaces() > net.decimals) {
      throw new ApiError(
        'exchange_error',
        `The exchange asked for ${debit.toFixed()} ${net.token}, more decimals than the token has; nothing was charged.`,
      );
    }
  } catch (err) {
    await db
      .update(exchangeOrders)
      .set({ state: 'abandoned', error: String((err as Error).message).slice(0, 300) })
      .where(eq(exchangeOrders.id, exo.id));
    throw err;
  }
  const fee = exchangeFeeOf(quote, debit);
  const id = newId('withdrawal');
  const metadata = {
    exchangeOrderId: order.id,
    exchangeToken: order.token,
    fromCurrency: order.from.code,
    toCurrency: order.to.code,
    depositAddress: order.from.address,
    depositAmount: debit.toFixed(),
    expectedAmount: new Decimal(order.to.amount).toFixed(),
    exchangeFee: fee.toFixed(),
    toAddress: order.to.address,
    exchangeStatus: order.status,
  };
  let created;
  try {
    created = await db.transaction(async (tx) => {
      await controls.debit(tx, debit); // the 24 h limit, under the balance row lock
      const w = await insertWithdrawal(tx, {
        id,
        tenantId: owner.tenantId,
        mode: owner.mode,
        kind: 'exchange',
        amount: debit.toFixed(),
        feeAmount: fee.toFixed(),
        netAmount: debit.toFixed(),
        destinationAddress: EVM_ADDRESS_CODEC.parse(order.from.address),
        chainId: net.chainId,
        chain: net.chain,
        token: net.token,
        metadata,
      });
      await tx
        .update(exchangeOrders)
        .set({ state: 'open', withdrawalId: id, priority: 0, nextCheckAt: new Date(Date.now() + 10_000), updatedAt: new Date() })
        .where(eq(exchangeOrders.id, exo.id));
      if (actor)
        await recordAudit(tx, actor, merchantAuditEntry(owner, { action: 'withdrawal.created', withdrawal: withdrawalView(w), kind: 'exchange' }));
      // The debit last: its row lock is then held only for the entry and the commit (see postLedgerEntries).
      await postLedgerEntries(
        tx,
        [
          {
            tenantId: owner.tenantId,
            mode: owner.mode,
            amount: debit.neg().toFixed(),
            kind: 'exchange_withdrawal',
            referenceType: 'withdrawal',
            referenceId: id,
            currency: net.token,
          },
        ],
        { insufficient: (available) => short(debit, available, net.token) },
      );
      return w;
    });
  } catch (err) {
    // Created but not funded: it expires at the exchange unpaid.
    await db
      .update(exchangeOrders)
      .set({ state: 'abandoned', error: String((err as Error).message).slice(0, 300) })
      .where(eq(exchangeOrders.id, exo.id));
    throw err;
  }
  const w = await sendWithdrawalNow(db, net, created.id, { waitMs: env().EXCHANGE_WITHDRAWAL_WAIT_SECONDS * 1000 });
  const rec = orderRecord(order);
  return {
    success: true as const,
    data: {
      withdrawal: withdrawalView(w),
      exchangeOrder: { id: rec.id, status: rec.status, from: rec.from, to: rec.to, token: rec.token },
      txHash: w.txHash,
    },
    meta: { timestamp: new Date().toISOString() },
  };
}
