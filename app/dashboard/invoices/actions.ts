'use server';

import { revalidatePath } from 'next/cache';
import { requireRail } from '@/lib/chain/network';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { ApiError } from '@/lib/api/errors';
import { priceInvoice } from '@/lib/fiat-rates/price-invoice';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { payTestInvoice } from '@/lib/invoices/pay-test-invoice';
import { CreateInvoiceBody, PayInvoiceBody } from '@/lib/invoices/schemas';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';

export async function createInvoiceAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('invoices:create');
    const { input: body, pricing } = await priceInvoice(ctx.db, ctx.mode, CreateInvoiceBody.parse(input));
    const network = requireRail(ctx.mode, body, ['depositMnemonic']);
    assertTenantRail(ctx.tenant, ctx.mode, body);
    // The payer's claim token never reaches the dashboard (issue 30 §1: members must not be able to act as the
    // payer); an invoice made here has no payer refund form, the merchant refunds it (docs/invoices.md).
    const { checkoutUrl: _secret, ...invoice } = await createInvoice(ctx.db, ctx.owner, network, body, pricing);
    revalidatePath('/dashboard/invoices');
    return invoice;
  });
}

/** Test mode only: the same faucet payment as POST /v1/test-helpers/invoices/:id/pay. */
export async function payTestInvoiceAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('invoices:create');
    if (ctx.mode !== 'test') throw new ApiError('forbidden', 'Simulated payments exist only in test mode.');
    const { amount } = PayInvoiceBody.parse(input);
    return payTestInvoice(ctx.db, { id, tenantId: ctx.tenant.id }, amount);
  });
}
