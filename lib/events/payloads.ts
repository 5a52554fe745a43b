import { z } from 'zod';
import { INVOICE_STATUSES } from '@/db/schema/invoices';
import { REFUND_REQUEST_STATUSES } from '@/db/schema/refund-requests';
import { ORDER_STATUSES } from '@/db/schema/storefront';
import { WITHDRAWAL_STATUSES } from '@/db/schema/withdrawals';
import { PAYOUT_ITEM_STATUSES, PAYOUT_STATUSES } from '@/db/schema/payouts';
import { NullableTimestamp, Timestamp } from '@/lib/api/schemas';
import { ASSETS, FIAT_CURRENCIES, OFFERED_CHAINS } from '@/lib/config/rails';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from './types';
import { SUBSCRIPTION_STATUSES } from '@/db/schema/subscriptions';

/*
 * The data of each event type as it is emitted (lib/invoices/view.ts,
 * lib/withdrawals/view.ts, lib/storefront/views.ts type their payloads
 * against these). Integrators generate code from them through the OpenAPI
 * `webhooks` section: add fields, never rename or remove one.
 */

const Amount = z.string().describe('Decimal string, e.g. "100.50".');

export const InvoiceEventData = z
  .object({
    invoiceId: z.string(),
    tenantId: z.string(),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    depositAddress: z.string(),
    amountExpected: Amount,
    amountReceived: Amount,
    feeAmount: Amount.describe('The gateway\'s fee on what was received; "0" until the invoice is settled (set by invoice.paid_out).'),
    amountCredited: Amount.describe('What the settlement credited to the balance: amountReceived less feeAmount; "0.00" until invoice.paid_out.'),
    amountUncollected: Amount.optional().describe(
      'Only when not zero: received but left on the deposit address and not credited, worth less than its sweep (docs/withdrawals.md, "Credited once swept").',
    ),
    status: z
      .enum(INVOICE_STATUSES)
      .describe('The invoice status when the event was written. invoice.paid_out of a late or partial payment on an expired invoice keeps EXPIRED.'),
    expiresAt: Timestamp,
    confirmationsRequired: z.int().meta({ examples: [5] }),
    txHashes: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'InvoiceEventData' });

export const WithdrawalEventData = z
  .object({
    id: z.string(),
    amount: Amount,
    feeAmount: Amount,
    netAmount: Amount,
    status: z.enum(WITHDRAWAL_STATUSES),
    destinationAddress: z.string(),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    txHash: z.string().nullable(),
    createdAt: Timestamp,
    failureReason: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'WithdrawalEventData' });

export const OrderEventData = z
  .object({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    items: z.array(z.object({ productId: z.string(), name: z.string(), unitPrice: Amount, quantity: z.number().int(), amount: Amount })),
    total: Amount,
    customerEmail: z.string(),
    invoiceId: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: 'OrderEventData' });

export const RefundRequestEventData = z
  .object({
    id: z.string(),
    invoiceId: z.string(),
    status: z.enum(REFUND_REQUEST_STATUSES),
    destinationAddress: z.string().describe('The address the payer gave on the checkout (EIP-55; on TRON its T… form).'),
    amount: Amount.describe('What the invoice had to give back when the payer asked: received above the price, or all of an unpaid invoice.'),
    withdrawalId: z.string().nullable().describe('The refund (a withdrawal with metadata.refundOfInvoiceId) once approved.'),
    declineReason: z.string().nullable(),
    decidedBy: z.string().nullable().describe('user:<id>, api_key:<id>, or policy (the auto-refund policy).'),
    createdAt: Timestamp,
    decidedAt: Timestamp.nullable(),
  })
  .meta({ id: 'RefundRequestEventData' });

export const HeldPaymentEventData = z
  .object({
    id: z.string(),
    invoiceId: z.string(),
    chain: z.enum(OFFERED_CHAINS).describe('The network the payment was sent on.'),
    token: z.enum(ASSETS).describe('The token that was sent.'),
    invoiceChain: z.enum(OFFERED_CHAINS).describe("The invoice's network."),
    invoiceToken: z.enum(ASSETS).describe("The invoice's token."),
    mismatch: z
      .enum(['network', 'token', 'screening'])
      .describe(
        'network: the right token on another network; token: another token; screening: held for review by the operator (payment.screening_hold).',
      ),
    status: z
      .enum(['held', 'credited', 'refunding', 'refunded', 'frozen'])
      .describe(
        "frozen: a payment held for review that the operator kept (never credited). held: neither counted towards the invoice nor credited (on the deposit address; after a failed send-back, in the balance: see refundFailureReason). credited (POST .../credit): another network's payment counts towards the invoice; another token's is credited to that token's balance once swept. refunding → refunded (POST .../refund): swept, then sent back to refundAddress by the withdrawal withdrawalId; refunded once that withdrawal completed, held again if it failed.",
      ),
    amount: Amount,
    txHash: z.string(),
    logIndex: z.number().int(),
    blockNumber: z.number().int(),
    fromAddress: z.string(),
    depositAddress: z.string(),
    refundAddress: z.string().nullable().describe('Where a refund goes (the sender); null unless refunding or refunded.'),
    withdrawalId: z.string().nullable().describe("The refund's withdrawal, once the payment is swept; null before."),
    refundFailureReason: z
      .string()
      .nullable()
      .describe('Why the last send-back failed (the payment is held again and may be sent back again or credited); null otherwise.'),
    reorgedAt: NullableTimestamp.describe(
      'Set when a reorg deeper than the confirmations dropped the payment after money moved on it (swept, credited or sent back): kept, flagged for you and the operator, never credited or sent back twice; blockNumber moves if it is mined again. Null otherwise.',
    ),
    createdAt: Timestamp,
  })
  .meta({ id: 'HeldPaymentEventData' });

export const PayoutItemEventData = z
  .object({
    payoutId: z.string(),
    position: z.int().describe("The item's index in the request, from 0."),
    reference: z.string().describe('Your reference for the item, unique among your payouts.'),
    status: z.enum(PAYOUT_ITEM_STATUSES),
    withdrawalId: z.string().describe("The item's withdrawal (its withdrawal.* events come too)."),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    destinationAddress: z.string(),
    amount: Amount,
    feeAmount: Amount,
    networkFeeReserved: Amount.describe("The network's flat fee, reserved in feeAmount when the payout was debited."),
    networkFee: Amount.describe(
      'The network fee finally charged: a batched item its share of the transaction cost (at most networkFeeReserved; the rest credited back as network_fee_refund), an item sent alone the flat fee, a failed item nothing.',
    ),
    networkFeeNote: z.string().nullable().describe('Why a batched item kept the flat network fee (its batch could not be priced); null otherwise.'),
    txHash: z.string().nullable(),
    failureReason: z.string().nullable().describe('Why the transfer failed; its amount and fee went back to the balance.'),
  })
  .meta({ id: 'PayoutItemEventData' });

export const PayoutEventData = z
  .object({
    id: z.string(),
    status: z.enum(PAYOUT_STATUSES),
    itemCount: z.int(),
    completed: z.int().describe('Items paid.'),
    failed: z.int().describe('Items that failed (refunded to the balance).'),
    createdAt: Timestamp,
    completedAt: NullableTimestamp,
  })
  .meta({ id: 'PayoutEventData' });

export const SubscriptionEventData = z
  .object({
    id: z.string(),
    planId: z.string(),
    customerEmail: z.string(),
    chain: z.enum(OFFERED_CHAINS).describe("The network of each period's invoice."),
    token: z.enum(ASSETS),
    amount: z.string().describe("Each period's invoice amount (the plan's), in token; in priceCurrency for a fiat-priced plan."),
    priceCurrency: z
      .enum(FIAT_CURRENCIES)
      .nullable()
      .describe("A fiat-priced plan's currency: each period's invoice is amount converted to token when billed. null: amount is in token."),
    status: z
      .enum(SUBSCRIPTION_STATUSES)
      .describe(
        "trialing (no invoice yet), active, past_due (the period's invoice is unpaid after its due date; active again once paid), canceled (final).",
      ),
    currentPeriodStart: Timestamp,
    currentPeriodEnd: Timestamp.describe('The next renewal (or the end of the trial); the end, with cancelAtPeriodEnd.'),
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: NullableTimestamp,
    latestInvoiceId: z.string().nullable().describe("The current or last billed period's invoice (GET /v1/invoices/{id}); null while trialing."),
    createdAt: Timestamp,
  })
  .meta({ id: 'Subscription' });
export const TestEventData = z.object({ endpointId: z.string(), message: z.string() }).meta({ id: 'WebhookTestEventData' });

export type InvoiceEventDataView = z.infer<typeof InvoiceEventData>;
export type WithdrawalEventDataView = z.infer<typeof WithdrawalEventData>;
export type OrderEventDataView = z.infer<typeof OrderEventData>;
export type RefundRequestEventDataView = z.infer<typeof RefundRequestEventData>;
export type TestEventDataView = z.infer<typeof TestEventData>;
export type HeldPaymentEventDataView = z.infer<typeof HeldPaymentEventData>;
export type PayoutItemEventDataView = z.infer<typeof PayoutItemEventData>;
export type PayoutEventDataView = z.infer<typeof PayoutEventData>;

export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;
/** What an endpoint can receive: the spec's 17 types, our extensions (refund_request.*, held_payment.*, payout.*, subscription.*) and webhook.test. */
export const ALL_EVENT_TYPES: readonly AnyEventType[] = [...EVENT_TYPES, TEST_EVENT_TYPE];

export function eventDataSchema(type: AnyEventType): z.ZodType {
  if (type === TEST_EVENT_TYPE) return TestEventData;
  if (type.startsWith('invoice.')) return InvoiceEventData;
  if (type.startsWith('withdrawal.')) return WithdrawalEventData;
  if (type.startsWith('refund_request.')) return RefundRequestEventData;
  if (type.startsWith('payout.item.')) return PayoutItemEventData;
  if (type.startsWith('payout.')) return PayoutEventData;
  if (type.startsWith('subscription.')) return SubscriptionEventData;
  // Events stored before the rename keep their old type (events is history): mismatched_payment.* (lib/events/types.ts).
  if (type.startsWith('held_payment.') || type.startsWith('mismatched_payment.') || type === 'payment.screening_hold') return HeldPaymentEventData;
  return OrderEventData;
}

/** One envelope schema per type, so generated code gets a discriminated union on `type`. */
export const EVENT_ENVELOPES = Object.fromEntries(
  ALL_EVENT_TYPES.map((type) => [
    type,
    z
      .object({
        id: z.string().describe('Event id; equals the X-Webhook-Id header. Deduplicate on it.'),
        type: z.literal(type),
        apiVersion: z
          .string()
          .describe(
            "The dated API version this event is rendered in: the endpoint's, else the account's. An endpoint on an older version receives that version's type names and data (docs/webhooks.md#versions); this document describes the latest.",
          ),
        createdAt: Timestamp,
        data: eventDataSchema(type),
      })
      .meta({ id: `${eventSchemaName(type)}Event` }),
  ]),
) as unknown as Record<AnyEventType, z.ZodType>;

/** invoice.paid_out -> InvoicePaidOut */
export function eventSchemaName(type: string): string {
  return type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
