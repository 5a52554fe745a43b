import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { CreatePaymentLinkBody, ListPaymentLinksQuery, PaymentLinkList, PaymentLinkSchema } from './schemas';

const tag = 'Payment links';

export const createPaymentLinkOp = defineOperation({
  id: 'createPaymentLink',
  method: 'POST',
  path: '/v1/payment-links',
  scope: 'invoices:write',
  tag,
  summary: 'Create a payment link',
  description:
    'A reusable public page (`url`, `/l/<slug>`) where each payer gets an invoice of their own: a fixed `amount`, or `minAmount`/`maxAmount` for an amount the payer types; optional fiat `currency` (each invoice locks its rate), quantity limit (`maxPayments`) and `expiresAt`. Invoices it creates carry `paymentLinkId` and the usual events. See docs/invoices.md#payment-links.',
  body: CreatePaymentLinkBody,
  example: { name: 'Workshop ticket', amount: '49.00', currency: 'EUR', maxPayments: 30 },
  response: PaymentLinkSchema,
  status: 201,
});

export const listPaymentLinksOp = defineOperation({
  id: 'listPaymentLinks',
  method: 'GET',
  path: '/v1/payment-links',
  scope: 'invoices:read',
  tag,
  summary: 'List payment links, newest first',
  description:
    'Paged: `page` defaults to 1, `limit` to 20 (at most 100). Each link has its paid and open invoice counts; list its invoices with `GET /v1/invoices?paymentLinkId=`.',
  query: ListPaymentLinksQuery,
  response: PaymentLinkList,
});

export const getPaymentLinkOp = defineOperation({
  id: 'getPaymentLink',
  method: 'GET',
  path: '/v1/payment-links/:id',
  scope: 'invoices:read',
  tag,
  summary: 'Get a payment link',
  params: { id: 'paymentLink' },
  query: z.strictObject({}),
  response: PaymentLinkSchema,
});

export const disablePaymentLinkOp = defineOperation({
  id: 'disablePaymentLink',
  method: 'POST',
  path: '/v1/payment-links/:id/disable',
  scope: 'invoices:write',
  tag,
  summary: 'Disable a payment link',
  description:
    'The page stops creating invoices at once; invoices it already created can still be paid. Disabling a disabled link returns it unchanged. Not reversible: create a new link instead.',
  params: { id: 'paymentLink' },
  response: PaymentLinkSchema,
});
