import { eq } from 'drizzle-orm';
import { isAddress } from 'viem';
import { exchangeOrders, type ExchangeOrder } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { newId } from '@/lib/ids';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import type { ExchangeClient } from './client';
import { ExchangeApiError, ExchangeBusyError, ExchangeRateLimitedError, TenantShareExceededError } from './errors';
import { toApiError } from './to-api-error';
import type { CreateParams, FfOrder } from './types';

export interface Recorded {
  row: ExchangeOrder;
  order: FfOrder;
}

/**
 * Creates an exchange order exactly once. The row is written first (state
 * creating); the answer decides: open-able (returned to the caller, who sets
 * state open in its own transaction), failed (refused, or never sent), or
 * unknown (sent, answer lost). An unknown create is never repeated and
 * never funded: without its id and token the gateway cannot pay it, and an
 * unpaid order expires at the exchange by itself.
 */
export async function createRecordedOrder(
  db: Db,
  client: ExchangeClient,
  owner: { tenantId: string; mode: Mode },
  purpose: ExchangeOrder['purpose'],
  params: CreateParams,
): Promise<Recorded> {
  const [row] = await db
    .insert(exchangeOrders)
    .values({
      id: newId('exchangeOrder'),
      tenantId: owner.tenantId,
      mode: owner.mode,
      purpose,
      state: 'creating',
      type: params.type,
      fromCcy: params.fromCcy,
      toCcy: params.toCcy,
      direction: params.direction,
      requestedAmount: params.amount,
      toAddress: params.toAddress,
    })
    .returning();
  let order: FfOrder;
  try {
    order = await client.create(params, { maxWaitMs: 15_000 });
  } catch (err) {
    const refused =
      err instanceof ExchangeApiError ||
      err instanceof ExchangeBusyError ||
      err instanceof ExchangeRateLimitedError ||
      err instanceof TenantShareExceededError;
    await db
      .update(exchangeOrders)
      .set({ state: refused ? 'failed' : 'unknown', error: String((err as Error).message).slice(0, 500), updatedAt: new Date() })
      .where(eq(exchangeOrders.id, row!.id));
    if (!refused) log.error('exchange create: outcome unknown; not retried, not funded', { exchangeOrder: row!.id, error: (err as Error).message });
    return toApiError(err);
  }
  if (!order || typeof order.id !== 'string' || typeof order.token !== 'string' || !order.from?.address || !(Number(order.from.amount) > 0)) {
    await db
      .update(exchangeOrders)
      .set({ state: 'unknown', error: 'malformed create answer', updatedAt: new Date() })
      .where(eq(exchangeOrders.id, row!.id));
    throw new ApiError('exchange_error', 'The exchange returned an unusable order; nothing was charged.');
  }
  const [updated] = await db
    .update(exchangeOrders)
    .set({
      exchangeId: order.id,
      token: order.token,
      status: order.status,
      fromAmount: String(order.from.amount),
      toAmount: String(order.to.amount),
      depositAddress: order.from.address,
      depositTag: order.from.tag ?? null,
      lastOrder: order as unknown as Record<string, unknown>,
      expiresAt: order.time?.expiration ? new Date(order.time.expiration * 1000) : null,
      updatedAt: new Date(),
    })
    .where(eq(exchangeOrders.id, row!.id))
    .returning();
  return { row: updated!, order };
}

/** An order whose from-currency is one of our rails must hand out an EVM deposit address. */
export function assertEvmDeposit(order: FfOrder) {
  if (!isAddress(order.from.address))
    throw new ApiError('exchange_error', 'The exchange returned a deposit address that is not an EVM address; nothing was charged.');
}
