import { isAddress } from 'viem';
import { z } from 'zod';
import { PLAN_INTERVALS } from '@/db/schema/plans';
import { SUBSCRIPTION_STATUSES } from '@/db/schema/subscriptions';
import { PageQuery, paged, Timestamp } from '@/lib/api/schemas';
import { ASSETS, DEFAULT_RAIL, FIAT_CURRENCIES, OFFERED_CHAINS } from '@/lib/config/rails';
import { amountString } from '@/lib/invoices/amount';
import { SubscriptionEventData } from '@/lib/events/payloads';

const int = (min: number, max: number) =>
  z
    .number({ error: () => `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const CreatePlanBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).describe('Shown to subscribers on each invoice, e.g. "Pro monthly".'),
    // Two decimals, as an invoice takes its amount: each period's invoice is exactly this.
    amount: amountString({ maxDecimals: 2, max: '1000000000', example: '29.00' })
      .optional()
      .describe('Charged each period in `token`: a decimal string greater than 0 with at most 2 decimals. Give this or `price`.'),
    price: z
      .strictObject({
        currency: z.enum(FIAT_CURRENCIES, { error: () => `must be one of: ${FIAT_CURRENCIES.join(', ')}` }),
        amount: amountString({ maxDecimals: 2, max: '1000000000', example: '9.99' }),
      })
      .optional()
      .describe(
        "A fiat price instead of `amount` (USDT plans only, as fiat-priced invoices): each period's invoice is this price converted at the gateway's fiat rate when the period is billed; the rate is recorded on the period and the invoice.",
      ),
    chain: z
      .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
      .default(DEFAULT_RAIL.chain)
      .describe("The subscriptions' default network; a subscription may choose another network of the same token."),
    token: z
      .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
      .default(DEFAULT_RAIL.token)
      .describe('USDT (default) or USDC.'),
    interval: z.enum(PLAN_INTERVALS, { error: () => `must be one of: ${PLAN_INTERVALS.join(', ')}` }).describe('The unit of a period.'),
    intervalCount: int(1, 365).default(1).describe('Units per period (interval month, intervalCount 3 = quarterly). Default 1.'),
    trialDays: int(0, 730)
      .default(0)
      .describe('Free days before the first paid period. Default 0: the first invoice is created with the subscription.'),
    graceDays: int(0, 365)
      .default(0)
      .describe("Days after a period's invoice is due (and the subscription past_due) before the subscription is canceled. Default 0."),
  })
  .refine((b) => (b.amount === undefined) !== (b.price === undefined), {
    message: 'give either amount (in token) or price (in a fiat currency)',
    path: ['amount'],
  });
export type CreatePlanInput = z.output<typeof CreatePlanBody>;

export const PlanSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    amount: z.string().nullable().describe('Charged each period, in token; null for a fiat-priced plan (price).'),
    price: z
      .object({ currency: z.enum(FIAT_CURRENCIES), amount: z.string() })
      .nullable()
      .describe("A fiat-priced plan's price: each period converted to token when billed. null: priced in token (amount)."),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    interval: z.enum(PLAN_INTERVALS),
    intervalCount: z.int(),
    trialDays: z.int(),
    graceDays: z.int(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Plan' });
export type PlanView = z.infer<typeof PlanSchema>;
export const PlanList = paged(PlanSchema);

export const CreateSubscriptionBody = z.strictObject({
  planId: z.string().describe('The plan (`plan_...`) of this account and mode.'),
  customerEmail: z
    .email({ error: () => 'must be an e-mail address' })
    .max(320)
    .describe("The customer's e-mail: each period's invoice is for them."),
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .optional()
    .describe("The network the customer pays on (the plan's token): default, the plan's network."),
  cancelAtPeriodEnd: z.boolean().default(false).describe('End at the end of the first period instead of renewing.'),
});
export type CreateSubscriptionInput = z.output<typeof CreateSubscriptionBody>;

/** The API object is the events' data (lib/events/payloads.ts holds it: lib/events stays below the domains). */
export const SubscriptionSchema = SubscriptionEventData;
export type SubscriptionView = z.infer<typeof SubscriptionSchema>;
export const SubscriptionList = paged(SubscriptionSchema);

export const ListSubscriptionsQuery = PageQuery.extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional().describe('Only subscriptions in this status.'),
  planId: z.string().optional().describe("Only this plan's subscriptions."),
});

export const CancelSubscriptionBody = z.strictObject({
  atPeriodEnd: z
    .boolean()
    .default(true)
    .describe('true (default): the subscription runs to currentPeriodEnd and is not renewed. false: canceled now (its open invoice stays payable).'),
});

const CollectionState = z
  .enum([
    'unsupported',
    'not_set_up',
    'authorized',
    'period_collected',
    'revoked',
    'allowance_revoked',
    'insufficient_allowance',
    'insufficient_balance',
    'canceled',
  ])
  .describe(
    "unsupported: this rail has no collector (Solana, or no collector configured) or the plan is priced in fiat: pay by invoice. not_set_up: no payer's authorization kept. " +
      "authorized: the next pull would go through. period_collected: this on-chain period's cap is used (it was pulled); the next one is pulled as usual. " +
      'revoked: the payer revoked the permission on the collector. allowance_revoked: the allowance to the collector is zero. ' +
      "insufficient_allowance / insufficient_balance: the payer's allowance or balance is below the amount. canceled: automatic collection was turned off (cancelReason).",
  );

export const SetUpCollectionBody = z.strictObject({
  payer: z
    .string()
    .max(100)
    .describe(
      'The wallet (`0x…` on EVM, `T…` on TRON) that approved the collector and called `authorize` (the permission is read back from the contract).',
    ),
});

const UintString = z
  .string()
  .regex(/^[0-9]{1,78}$/, 'must be a whole number as a decimal string')
  .describe('A whole number as a decimal string, as the typed data has it.');
const SignatureHex = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature (0x and 130 hex characters), as eth_signTypedData_v4 returns it');

/** The payer's two USDC signatures (GET …/collection?payer= `permit.typedData`, signed as given). */
export const PermitSetUpBody = z.strictObject({
  payer: z.string().max(100).describe('The 0x wallet that signed both messages (their `owner` and `payer`).'),
  chainId: z.number().int().positive().describe("The chain id of both domains as signed (the rail's: another is refused, permit_wrong_chain)."),
  permitValue: UintString.describe("The Permit's `value` as signed, in base units: at most twelve periods (`permit.permitValue`)."),
  deadline: UintString.describe('The `deadline` of both messages as signed (Unix seconds).'),
  permitSignature: SignatureHex.describe("The payer's signature of the token's Permit."),
  authorizeSignature: SignatureHex.describe("The payer's signature of the collector's Authorize."),
});

export const CollectionAttemptSchema = z.object({
  periodStart: Timestamp,
  invoiceId: z.string(),
  status: z
    .enum(['skipped', 'signed', 'confirmed', 'failed'])
    .describe(
      'skipped: not pulled, e-mailed instead (reason); signed: sent, awaiting its receipt; confirmed: pulled; failed: reverted, e-mailed instead.',
    ),
  reason: z.string().nullable(),
  amount: z.string(),
  txHash: z.string().nullable(),
  networkFee: z
    .string()
    .nullable()
    .describe("The pull's gas charged to the account (pull_network_fee, with the pulled money's credit), in token; null unless confirmed."),
  createdAt: Timestamp,
});

/** EIP-712 typed data as `eth_signTypedData_v4` takes it (numbers as decimal strings). */
const TypedData = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: z.string() }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.string()),
});

export const SubscriptionCollectionQuery = z.strictObject({
  payer: z
    .string()
    // A permit is an EVM token's (USDC): the payer is a 0x address (viem's rule, not a pattern written out here).
    .refine((v) => isAddress(v, { strict: false }), 'must be a 0x address of 20 bytes')
    .optional()
    .describe("The paying wallet: the answer's `permit.typedData` carries its nonces (USDC rails)."),
});

export const SubscriptionCollectionSchema = z
  .object({
    subscriptionId: z.string(),
    state: CollectionState,
    chain: z.enum(OFFERED_CHAINS),
    chainId: z.int().nullable(),
    token: z.enum(ASSETS),
    tokenAddress: z.string().nullable(),
    decimals: z.int().nullable(),
    collectorAddress: z.string().nullable().describe('The spender to approve, and the contract to call `authorize` on.'),
    approve: z
      .object({
        spender: z.string(),
        amountPerPeriod: z.string().describe('Token base units each period pulls; the allowance must cover every pull, so approve a multiple.'),
      })
      .nullable()
      .describe("The payer's `approve(spender, amount)` on the token, first."),
    authorize: z
      .object({
        subscriptionId: z.string().describe('bytes32: keccak256 of the `sub_...` id.'),
        token: z.string(),
        maxPerPeriod: z.string().describe('Token base units.'),
        periodSeconds: z.int(),
        start: z.string().describe('Unix seconds: the next period start.'),
      })
      .nullable()
      .describe(
        'The arguments of `authorize(subscriptionId, token, maxPerPeriod, periodSeconds, start)`, called on the collector from the paying wallet.',
      ),
    permit: z
      .object({
        permitValue: z.string().describe('Token base units the Permit allows the collector: twelve periods.'),
        deadline: z.string().describe('Unix seconds: both signatures are valid until then (an hour from this answer).'),
        typedData: z
          .object({ permit: TypedData, authorize: TypedData })
          .nullable()
          .describe(
            "The token's `Permit` and the collector's `Authorize` for `eth_signTypedData_v4`, with the payer's nonces; null without `?payer=`.",
          ),
      })
      .nullable()
      .describe(
        'On rails whose token has EIP-2612 (USDC, not on BSC): set up without a transaction. The payer signs both messages; `permitAndAuthorize(payer, (subscriptionId, token, maxPerPeriod, periodSeconds, start), permitValue, deadline, permitSig, authorizeSig)` on the collector, sent by anyone (the gateway), sets the allowance and the permission. null on other rails: approve and authorize.',
      ),
    payer: z.string().nullable(),
    allowance: z.string().nullable().describe("The payer's allowance to the collector, in token (read now)."),
    balance: z.string().nullable().describe("The payer's token balance (read now)."),
    cancelReason: z.string().nullable(),
    attempts: z.array(CollectionAttemptSchema).describe('The last attempts, newest first (at most 5).'),
  })
  .meta({ id: 'SubscriptionCollection' });
export type SubscriptionCollectionView = z.infer<typeof SubscriptionCollectionSchema>;

export const CreatePortalSessionBody = z.strictObject({
  customerEmail: z
    .email({ error: () => 'must be an e-mail address' })
    .max(320)
    .describe("The customer's e-mail: the portal shows this account's subscriptions (this mode) with this e-mail."),
  sendEmail: z.boolean().default(false).describe('E-mail the link to the customer (default false: only returned).'),
});

export const PortalSessionSchema = z
  .object({
    url: z
      .string()
      .describe('The one-time portal link, carrying its secret: shown once, never stored in clear. Absolute when PUBLIC_BASE_URL is set.'),
    expiresAt: Timestamp.describe('The link works once, until then (15 minutes).'),
  })
  .meta({ id: 'PortalSession' });
