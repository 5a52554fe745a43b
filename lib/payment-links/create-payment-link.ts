import { randomBytes } from 'node:crypto';
import { paymentLinks } from '@/db/schema';
import { requireRail } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreatePaymentLinkInput } from './schemas';
import { paymentLinkView } from './view';

/** 16 random bytes: a slug nobody can guess or enumerate (the page is public). */
const newSlug = () => randomBytes(16).toString('base64url');

/** A link on one of the rails the gateway enables and the tenant accepts (400 otherwise), as an invoice would be. */
export async function createPaymentLink(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: { rails: string[] | null } },
  input: CreatePaymentLinkInput,
) {
  requireRail(owner.mode, input, []);
  assertTenantRail(owner.tenant, owner.mode, input);
  const [row] = await db
    .insert(paymentLinks)
    .values({
      id: newId('paymentLink'),
      tenantId: owner.tenantId,
      mode: owner.mode,
      slug: newSlug(),
      name: input.name,
      description: input.description ?? null,
      amount: input.amount ?? null,
      minAmount: input.minAmount ?? null,
      maxAmount: input.maxAmount ?? null,
      chain: input.chain,
      token: input.token,
      currency: input.currency ?? input.token,
      maxPayments: input.maxPayments ?? null,
      invoiceExpiresInMinutes: input.invoiceExpiresInMinutes,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })
    .returning();
  return paymentLinkView(row!, { paid: 0, open: 0 });
}
