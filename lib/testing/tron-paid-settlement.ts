import { eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { expect } from 'vitest';
import { invoices, settlements } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { newId } from '@/lib/ids';
import { settlementFee } from '@/lib/invoices/fee';
import { call } from './app';
import type { createTestTenant } from './fixtures';
import type { TronRail } from './tron-rail';

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;

/**
 * A paid TRON invoice of the tenant (fee rate 1 %) with its settlement as the fan-out makes it (PROCESSING_PAYOUT),
 * the USDT minted to its deposit address on the stand-in (the TRON sweep tests' shared fixture).
 */
export async function tronPaidSettlement(rail: TronRail, t: Tenant, amount: string) {
  const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount, chain: 'TRON', token: 'USDT' } });
  expect(res.status, res.text).toBe(201);
  const [inv] = await t.db
    .select()
    .from(invoices)
    .where(eq(invoices.id, res.body.id as string));
  const units = parseUnits(amount, 6);
  await rail.node.mintUsdt(toBase58(inv!.depositAddress), units);
  const { fee, net: netAmount } = settlementFee(amount, '0.01');
  const id = newId('settlement');
  await t.db.transaction(async (tx) => {
    await tx.update(invoices).set({ status: 'PROCESSING_PAYOUT', amountReceived: amount }).where(eq(invoices.id, inv!.id));
    await tx.insert(settlements).values({
      id,
      invoiceId: inv!.id,
      tenantId: inv!.tenantId,
      mode: 'test',
      chainId: rail.net.chainId,
      token: 'USDT',
      kind: 'invoice',
      amount,
      feeAmount: fee,
      netAmount,
    });
  });
  return { ...t, tenantId: t.tenant.id, invoice: inv!, deposit: inv!.depositAddress, invoiceId: inv!.id, settlementId: id, units, netAmount };
}
export type TronPaid = Awaited<ReturnType<typeof tronPaidSettlement>>;
