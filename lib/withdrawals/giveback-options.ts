import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Decimal } from '@/lib/money';
import type { WithdrawalOptions } from './create-withdrawal';

export type RefundNetworkFeePayer = 'payer' | 'merchant';

/**
 * How money the merchant never kept is given back (issue 30: passing money back costs the merchant
 * nothing): no percentage withdrawal fee, the invoice fee charged on it returned with it, and the
 * network fee paid by whom the tenant chose (the payer by default: taken from what they get back).
 */
export function givebackOptions(payer: RefundNetworkFeePayer, invoiceFeeRefund?: Decimal): WithdrawalOptions {
  return { percentFee: false, networkFeeFrom: payer === 'payer' ? 'amount' : 'balance', ...(invoiceFeeRefund ? { invoiceFeeRefund } : {}) };
}

/** The tenant's choice of who pays a refund's network fee. */
export async function refundNetworkFeePayer(db: Db, tenantId: string): Promise<RefundNetworkFeePayer> {
  const [t] = await db.select({ payer: tenants.refundNetworkFeePayer }).from(tenants).where(eq(tenants.id, tenantId));
  if (!t) throw new Error(`tenant ${tenantId} not found`);
  return t.payer;
}
