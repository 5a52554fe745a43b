import { randomBytes } from 'node:crypto';
import { paymentLinks } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreatePaymentLinkInput } from './schemas';
import { paymentLinkView } from './view';

/** 16 random bytes: a slug nobody can guess or enumerate (the page is public). */
const newSlug = () => randomBytes(16).toString('base64url');

export async function createPaymentLink(db: Db, owner: { tenantId: string; mode: Mode }, input: CreatePaymentLinkInput) {
  const [row] = await db
    .insert(paymentLinks)
    .values({
      id: newId('paymentLink'),
      ...owner,
      slug: newSlug(),
      name: input.name,
      description: input.description ?? null,
      amount: input.amount ?? null,
      minAmount: input.minAmount ?? null,
      maxAmount: input.maxAmount ?? null,
      currency: input.currency,
      maxPayments: input.maxPayments ?? null,
      invoiceExpiresInMinutes: input.invoiceExpiresInMinutes,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })
    .returning();
  return paymentLinkView(row!, { paid: 0, open: 0 });
}
