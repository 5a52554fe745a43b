import { and, eq, sql } from 'drizzle-orm';
import { isAddress, zeroAddress } from 'viem';
import { z } from 'zod';
import { exchangeOrders, type ExchangeOrder } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { validate } from '@/lib/api/request';
import { auditMerchantAction } from '@/lib/audit/audit-merchant-action';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { readEmergency } from './exchange-advice';
import { requireExchange } from './get-exchange';
import { recordOrderState } from './record-order-state';
import { toApiError } from './to-api-error';
import { railOfExchangeCode } from './rail-currencies';

/** The merchant's decision on an EMERGENCY order; the refund address is checked against the order's from-currency. */
export const ResolveEmergencyBody = z.strictObject({
  orderId: z.string().trim().min(1).max(64),
  choice: z.enum(['EXCHANGE', 'REFUND']),
  refundAddress: z.string().trim().max(128).optional(),
  refundTag: z.string().trim().max(64).optional(),
});
export type ResolveEmergencyInput = z.input<typeof ResolveEmergencyBody>;

const invalid = (code: 'validation_failed' | 'invalid_address', path: string, message: string) =>
  new ApiError(code, `${path}: ${message}`, [{ path, message }]);

/** Where a refund may go: an EVM address for one of our rails' codes (USDTBSC, USDC, ...), otherwise any address-like string (the exchange checks it for its coin). */
export function checkRefundAddress(fromCcy: string, raw: string | undefined): string {
  const address = raw?.trim() ?? '';
  if (!address) throw invalid('validation_failed', 'refundAddress', 'is required for a refund');
  const rail = railOfExchangeCode(fromCcy);
  if (rail) {
    if (!isAddress(address))
      throw invalid(
        'invalid_address',
        'refundAddress',
        `must be a ${rail.chain} address: 0x followed by 40 hex characters (checksum-valid when mixed case)`,
      );
    if (address.toLowerCase() === zeroAddress) throw invalid('invalid_address', 'refundAddress', 'must not be the zero address');
    return address;
  }
  if (address.length > 128 || /\s/.test(address))
    throw invalid('invalid_address', 'refundAddress', `must be a ${fromCcy} address: up to 128 characters, no spaces`);
  return address;
}

/** Puts the decision on the stored order only if nobody decided yet (a second click or a second tab gets 409). */
async function claim(db: Db, row: ExchangeOrder, choice: string): Promise<boolean> {
  const emergency = sql`coalesce(${exchangeOrders.lastOrder}->'emergency', '{}'::jsonb)`;
  const claimed = await db
    .update(exchangeOrders)
    .set({
      lastOrder: sql`jsonb_set(coalesce(${exchangeOrders.lastOrder}, '{}'::jsonb), '{emergency}', ${emergency} || jsonb_build_object('choice', ${choice}::text))`,
    })
    .where(
      and(
        eq(exchangeOrders.id, row.id),
        eq(exchangeOrders.status, 'EMERGENCY'),
        sql`coalesce(${exchangeOrders.lastOrder}->'emergency'->>'choice', 'NONE') = 'NONE'`,
      ),
    )
    .returning({ id: exchangeOrders.id });
  return claimed.length === 1;
}

/** The exchange did not take the decision: the order is decidable again, and the tracker looks at it now to learn the truth. */
async function release(db: Db, row: ExchangeOrder, choice: string) {
  await db
    .update(exchangeOrders)
    .set({
      lastOrder: sql`jsonb_set(${exchangeOrders.lastOrder}, '{emergency,choice}', '"NONE"'::jsonb)`,
      nextCheckAt: new Date(),
    })
    .where(and(eq(exchangeOrders.id, row.id), sql`${exchangeOrders.lastOrder}->'emergency'->>'choice' = ${choice}::text`));
}

/**
 * The merchant decides an EMERGENCY exchange order (late, short, too large or
 * outside limits): EXCHANGE continues at the market rate, REFUND sends the
 * deposit minus the network fee to refundAddress. Tenant and mode scoped
 * (another tenant's id is a 404); the order must be EMERGENCY with no choice
 * made (409 invalid_state). The decision goes to the exchange's `emergency`
 * method; the order is then fetched and recorded at once, and an audit row
 * is written. The order token is never logged.
 */
export async function resolveExchangeEmergency(db: Db, owner: { tenantId: string; mode: Mode }, input: ResolveEmergencyInput, actor: AuditActor) {
  const body = validate(ResolveEmergencyBody, input, 'body');
  const [row] = await db
    .select()
    .from(exchangeOrders)
    .where(and(eq(exchangeOrders.id, body.orderId), eq(exchangeOrders.tenantId, owner.tenantId), eq(exchangeOrders.mode, owner.mode)));
  if (!row) throw notFound('Exchange order');
  const before = readEmergency(row.lastOrder?.emergency);
  if (row.status !== 'EMERGENCY' || before.choice !== 'NONE' || !row.exchangeId || !row.token) {
    throw new ApiError(
      'invalid_state',
      row.status === 'EMERGENCY' && before.choice !== 'NONE'
        ? `This order was already decided (${before.choice}).`
        : `Only an order in EMERGENCY can be decided; this one is ${row.status ?? 'not created'}.`,
    );
  }
  const refundAddress = body.choice === 'REFUND' ? checkRefundAddress(row.fromCcy, body.refundAddress) : undefined;
  const refundTag = body.choice === 'REFUND' && body.refundTag ? body.refundTag : undefined;
  const client = requireExchange(db, owner.mode, owner.tenantId);
  if (!(await claim(db, row, body.choice))) throw new ApiError('invalid_state', 'This order was already decided, or is no longer in EMERGENCY.');

  try {
    const accepted = await client.emergency(
      {
        id: row.exchangeId,
        token: row.token,
        choice: body.choice,
        ...(refundAddress ? { address: refundAddress } : {}),
        ...(refundTag ? { tag: refundTag } : {}),
      },
      { maxWaitMs: 10_000 },
    );
    if (accepted !== true) throw new ApiError('exchange_error', 'The exchange did not confirm the decision; nothing changed. Retry later.');
  } catch (err) {
    await release(db, row, body.choice);
    log.warn('exchange emergency decision failed', {
      exchangeOrder: row.id,
      exchangeId: row.exchangeId,
      choice: body.choice,
      error: (err as Error).message,
    });
    return toApiError(err);
  }
  log.info('exchange emergency decided', { exchangeOrder: row.id, exchangeId: row.exchangeId, choice: body.choice });

  // Show the new state at once. If this look fails, the decision stands (shown by the claim) and the tracker looks now.
  let status: string | null = row.status;
  let choice: string = body.choice;
  try {
    const order = await client.order(row.exchangeId, row.token, { maxWaitMs: 10_000 });
    await recordOrderState(db, row, order);
    status = order.status;
    choice = readEmergency(order.emergency).choice === 'NONE' ? body.choice : readEmergency(order.emergency).choice;
  } catch (err) {
    log.warn('exchange order look after the emergency decision failed', { exchangeOrder: row.id, error: (err as Error).message });
    await db.update(exchangeOrders).set({ nextCheckAt: new Date(), priority: 0 }).where(eq(exchangeOrders.id, row.id));
  }

  await auditMerchantAction(db, actor, owner, {
    action: 'exchange_order.emergency_resolved',
    order: {
      id: row.id,
      exchangeId: row.exchangeId,
      purpose: row.purpose,
      reasons: before.reasons,
      choice: body.choice,
      refundAddress: refundAddress ?? null,
      status,
    },
  });
  return { id: row.id, exchangeId: row.exchangeId, purpose: row.purpose, choice, status, refundAddress: refundAddress ?? null };
}
