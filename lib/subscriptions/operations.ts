import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { PageQuery } from '@/lib/api/schemas';
import {
  CancelSubscriptionBody,
  CreatePlanBody,
  CreatePortalSessionBody,
  CreateSubscriptionBody,
  ListSubscriptionsQuery,
  PlanList,
  PlanSchema,
  PortalSessionSchema,
  PermitSetUpBody,
  SetUpCollectionBody,
  SubscriptionCollectionQuery,
  SubscriptionCollectionSchema,
  SubscriptionList,
  SubscriptionSchema,
} from './schemas';

const tag = 'Subscriptions';

export const createPlanOp = defineOperation({
  id: 'createPlan',
  method: 'POST',
  path: '/v1/plans',
  scope: 'subscriptions:write',
  tag,
  summary: 'Create a subscription plan',
  description:
    'Extension (issue 48). What a subscriber pays each period (`amount` in `token`, at most 2 decimals, or for USDT plans a fiat `price` converted at each billing) on which rail by default, how long a period is (`interval` × `intervalCount`), the free trial and the grace period after an unpaid invoice falls due. A plan is not edited: create another. See docs/subscriptions.md.',
  body: CreatePlanBody,
  example: { name: 'Pro monthly', amount: '29.00', chain: 'BSC', token: 'USDT', interval: 'month', intervalCount: 1, trialDays: 14, graceDays: 3 },
  response: PlanSchema,
  status: 201,
});

export const listPlansOp = defineOperation({
  id: 'listPlans',
  method: 'GET',
  path: '/v1/plans',
  scope: 'subscriptions:read',
  tag,
  summary: 'List plans, newest first',
  query: PageQuery,
  response: PlanList,
});

export const getPlanOp = defineOperation({
  id: 'getPlan',
  method: 'GET',
  path: '/v1/plans/:id',
  scope: 'subscriptions:read',
  tag,
  summary: 'Get a plan',
  params: { id: 'plan' },
  query: z.strictObject({}),
  response: PlanSchema,
});

export const createSubscriptionOp = defineOperation({
  id: 'createSubscription',
  method: 'POST',
  path: '/v1/subscriptions',
  scope: 'subscriptions:write',
  tag,
  summary: 'Subscribe a customer to a plan',
  description:
    "Extension (issue 48). Without a trial the subscription is `active` and its first period's invoice is created at once (`latestInvoiceId`; invoice.created then subscription.created). With one it is `trialing` until `currentPeriodEnd`. " +
    'Each period the gateway creates the next invoice (subscription.renewed); unpaid after its due date (a week, or the period when shorter) the subscription is `past_due` (subscription.past_due), active again once paid, and canceled `graceDays` later (subscription.canceled). ' +
    "A fiat-priced plan's period is converted to USDT at the gateway's fiat rate when it is billed (the rate recorded on the invoice); without a fresh rate the period waits for the next run (rate_unavailable when it is the first period, created here). " +
    "The invoice is paid as any other. On EVM rails whose payer authorized the gateway's collector contract, each period is pulled from the payer's wallet into the invoice's address instead of e-mailed; when it cannot be (approval revoked, insufficient balance) the invoice is e-mailed and subscription.payment_failed sent (docs/subscriptions.md). The payer turns it on from the checkout of a period's invoice (Pay now and collect automatically), or the merchant with POST /v1/subscriptions/{id}/collection once the payer signed; the customer portal turns it off.",
  body: CreateSubscriptionBody,
  example: { planId: 'plan_01JD0000000000000000000000', customerEmail: 'customer@example.com' },
  response: SubscriptionSchema,
  status: 201,
  // A fiat-priced plan's first period is converted at once: no fresh rate is a 503, never a guessed amount.
  errors: ['rate_unavailable'],
});

export const listSubscriptionsOp = defineOperation({
  id: 'listSubscriptions',
  method: 'GET',
  path: '/v1/subscriptions',
  scope: 'subscriptions:read',
  tag,
  summary: 'List subscriptions, newest first',
  query: ListSubscriptionsQuery,
  response: SubscriptionList,
});

export const getSubscriptionOp = defineOperation({
  id: 'getSubscription',
  method: 'GET',
  path: '/v1/subscriptions/:id',
  scope: 'subscriptions:read',
  tag,
  summary: 'Get a subscription',
  params: { id: 'subscription' },
  query: z.strictObject({}),
  response: SubscriptionSchema,
});

export const cancelSubscriptionOp = defineOperation({
  id: 'cancelSubscription',
  method: 'POST',
  path: '/v1/subscriptions/:id/cancel',
  scope: 'subscriptions:write',
  tag,
  summary: 'Cancel a subscription',
  description:
    'At the period end (default, `cancelAtPeriodEnd` becomes true: no further invoice; subscription.canceled at `currentPeriodEnd`), or now with `atPeriodEnd: false` (subscription.canceled now; an open invoice stays payable). Canceling a canceled subscription returns it unchanged.',
  params: { id: 'subscription' },
  body: CancelSubscriptionBody,
  example: { atPeriodEnd: true },
  response: SubscriptionSchema,
});

export const getSubscriptionCollectionOp = defineOperation({
  id: 'getSubscriptionCollection',
  method: 'GET',
  path: '/v1/subscriptions/:id/collection',
  scope: 'subscriptions:read',
  tag,
  summary: "A subscription's automatic collection: how to allow it, and its state",
  description:
    "Extension (issue 48). What the payer's wallet must do for the gateway to pull each period (EVM rails with a collector contract): `approve` the collector on the token, then call `authorize` with the given arguments, or, where the token has EIP-2612 (USDC), sign `permit.typedData` (ask with `?payer=`) for a set-up without a transaction; and the current state read from the chain now (authorized, revoked, allowance or balance too low) with the last attempts. A chain that cannot be read is a 503 service_unavailable, never a verdict. See docs/subscriptions.md.",
  params: { id: 'subscription' },
  query: SubscriptionCollectionQuery,
  response: SubscriptionCollectionSchema,
  errors: ['service_unavailable'],
});

export const setUpSubscriptionCollectionOp = defineOperation({
  id: 'setUpSubscriptionCollection',
  method: 'POST',
  path: '/v1/subscriptions/:id/collection',
  scope: 'subscriptions:write',
  tag,
  summary: 'Turn on automatic collection once the payer authorized it',
  description:
    "Extension (issue 48). After the payer's wallet did what `GET .../collection` says (`approve`, then `authorize`), give its address: the gateway reads the permission and the allowance back from the collector and token and keeps them, so the periods billed from then on are pulled. The consent is the payer's signature on chain: a wallet that did not authorize this subscription's id, token and amount, or did not approve at least one period, is `409 collection_not_authorized` and nothing is kept. A chain that cannot be read is a 503 service_unavailable. Payers do the same from the hosted checkout of the subscription's invoice (with their claim token). See docs/subscriptions.md.",
  params: { id: 'subscription' },
  body: SetUpCollectionBody,
  example: { payer: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
  response: SubscriptionCollectionSchema,
  errors: ['collection_not_authorized', 'invalid_address', 'service_unavailable'],
});

export const setUpSubscriptionCollectionByPermitOp = defineOperation({
  id: 'setUpSubscriptionCollectionByPermit',
  method: 'POST',
  path: '/v1/subscriptions/:id/collection/permit',
  scope: 'subscriptions:write',
  tag,
  summary: "Turn on automatic collection with the payer's USDC signatures",
  description:
    "Extension (issue 48). On rails whose token has EIP-2612 (USDC, not on BSC): give the payer's two signatures of `permit.typedData` from `GET .../collection?payer=` (the token's Permit and the collector's Authorize) as signed. The gateway checks them before anything is sent: the rail's chain (`permit_wrong_chain`), a deadline at least a minute away (`permit_expired`), an allowance of one to twelve periods (`permit_value_exceeds_cap`), and both messages, rebuilt from the subscription's terms, the collector as spender and the payer's current nonces, recovering to `payer` (`permit_invalid_signature`); all 400 with nothing sent. Then it sends `permitAndAuthorize` from its own wallet, once per signed pair (a replay or a concurrent duplicate gets the same transaction), waits for it and turns collection on. The transaction's gas is charged to the account with the subscription's next credited payment. A chain that cannot be read, or a transaction not confirmed yet, is a 503: send the same body again. See docs/subscriptions.md.",
  params: { id: 'subscription' },
  body: PermitSetUpBody,
  example: {
    payer: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    chainId: 1,
    permitValue: '120000000',
    deadline: '1767225600',
    permitSignature: `0x${'1'.repeat(128)}1b`,
    authorizeSignature: `0x${'2'.repeat(128)}1c`,
  },
  response: SubscriptionCollectionSchema,
  errors: [
    'permit_invalid_signature',
    'permit_expired',
    'permit_value_exceeds_cap',
    'permit_wrong_chain',
    'collection_not_authorized',
    'invalid_address',
    'invalid_state',
    'service_unavailable',
  ],
});

export const createPortalSessionOp = defineOperation({
  id: 'createPortalSession',
  method: 'POST',
  path: '/v1/portal-sessions',
  scope: 'subscriptions:write',
  tag,
  summary: 'A one-time customer portal link',
  description:
    'Extension (issue 48). A link for a customer e-mail to the customer portal, where they see their subscriptions with this account (this mode) and can cancel one at its period end. The link works once and for 15 minutes; opening it starts a 30-minute browser session. With `sendEmail` it is e-mailed to the customer. The answer is the same whether or not the e-mail has a subscription (the portal then lists nothing), so it does not tell who is a customer. See docs/subscriptions.md.',
  body: CreatePortalSessionBody,
  example: { customerEmail: 'customer@example.com', sendEmail: true },
  response: PortalSessionSchema,
  status: 201,
  // The link is the credential: shown once, a replay is refused rather than answering it again.
  secretFields: ['url'],
});
