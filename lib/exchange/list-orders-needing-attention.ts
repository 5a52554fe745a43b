import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { exchangeOrders } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { exchangeAdvice, readEmergency } from './exchange-advice';

const LIMIT = 50;

export interface OrderNeedingAttention {
  id: string;
  exchangeId: string | null;
  purpose: 'withdrawal' | 'payin' | 'manual';
  status: 'EXPIRED' | 'EMERGENCY';
  fromCcy: string;
  toCcy: string;
  fromAmount: string | null;
  toAmount: string | null;
  withdrawalId: string | null;
  invoiceId: string | null;
  /** The exchange's reasons (emergency.status): LESS, MORE, LIMIT, EXPIRED. Empty for EXPIRED orders. */
  reasons: string[];
  /** The choice made so far (emergency.choice): NONE until someone decides, then EXCHANGE or REFUND. */
  choice: string;
  /** EMERGENCY with no choice yet: the merchant can decide (resolveExchangeEmergency). */
  canResolve: boolean;
  advice: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The tenant's own exchange orders (this mode only) that need a person:
 * status EXPIRED or EMERGENCY while still tracked (state open), newest first,
 * at most 50, each with what to do. Uses exchange_orders_tenant_status_idx.
 */
export async function listOrdersNeedingAttention(db: Db, owner: { tenantId: string; mode: Mode }): Promise<OrderNeedingAttention[]> {
  const rows = await db
    .select({
      id: exchangeOrders.id,
      exchangeId: exchangeOrders.exchangeId,
      purpose: exchangeOrders.purpose,
      status: exchangeOrders.status,
      fromCcy: exchangeOrders.fromCcy,
      toCcy: exchangeOrders.toCcy,
      fromAmount: exchangeOrders.fromAmount,
      toAmount: exchangeOrders.toAmount,
      withdrawalId: exchangeOrders.withdrawalId,
      invoiceId: exchangeOrders.invoiceId,
      emergency: sql`${exchangeOrders.lastOrder}->'emergency'`.mapWith(exchangeOrders.lastOrder),
      createdAt: exchangeOrders.createdAt,
      updatedAt: exchangeOrders.updatedAt,
    })
    .from(exchangeOrders)
    .where(
      and(
        eq(exchangeOrders.tenantId, owner.tenantId),
        eq(exchangeOrders.mode, owner.mode),
        inArray(exchangeOrders.status, ['EXPIRED', 'EMERGENCY']),
        eq(exchangeOrders.state, 'open'),
      ),
    )
    .orderBy(desc(exchangeOrders.createdAt), desc(exchangeOrders.id))
    .limit(LIMIT);
  return rows.map(({ emergency, ...r }) => {
    const status = r.status as 'EXPIRED' | 'EMERGENCY';
    const { reasons, choice } = status === 'EMERGENCY' ? readEmergency(emergency) : { reasons: [], choice: 'NONE' };
    return {
      ...r,
      status,
      reasons,
      choice,
      canResolve: status === 'EMERGENCY' && choice === 'NONE' && r.exchangeId !== null,
      advice: exchangeAdvice({ status, purpose: r.purpose, reasons, choice }),
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}
