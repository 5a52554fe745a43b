import { plans } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { FIAT_QUOTE_ASSET } from '@/lib/config/rails';
import { requireRail } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import type { CreatePlanInput } from './schemas';
import { planView } from './view';

/** A plan (priced in its token, or in fiat for USDT) on one of the rails the gateway enables and the tenant accepts (400 otherwise), as an invoice would be. */
export async function createPlan(db: Db, owner: { tenantId: string; mode: Mode; tenant: { rails: string[] | null } }, input: CreatePlanInput) {
  const { price, amount, ...rest } = input;
  // Fiat rates are quoted in USDT (priceInvoice): another token's invoice cannot take a fiat price.
  if (price && input.token !== FIAT_QUOTE_ASSET)
    throw new ApiError('validation_failed', `Fiat prices are offered for ${FIAT_QUOTE_ASSET} plans; price a ${input.token} plan in ${input.token}.`, [
      { path: 'price', message: `must be absent for a ${input.token} plan` },
    ]);
  requireRail(owner.mode, input, []);
  assertTenantRail(owner.tenant, owner.mode, input);
  const [row] = await db
    .insert(plans)
    .values({
      id: newId('plan'),
      tenantId: owner.tenantId,
      mode: owner.mode,
      ...rest,
      amount: price ? price.amount : amount!,
      priceCurrency: price?.currency ?? null,
    })
    .returning();
  return planView(row!);
}
