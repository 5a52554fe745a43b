import type { Scope } from '@/lib/api/scopes';

/**
 * Who may move money, on every path (issue 42 §1): declared once, next to the operations list (lib/operations.ts).
 * docs/withdrawals.md's "Who may move money" is rendered from it (lib/money-paths-doc.ts; a test compares), and
 * lib/money-paths.test.ts tries every actor on every path. A path or an actor added without its row fails that test
 * (and the type below), as a /v1 route added without its scope fails lib/api/auth-matrix.test.ts.
 */

/** Who can start something: the dashboard's roles, each API key scope, the payer, a stranger, the jobs. */
export const ACTORS = [
  'owner_2fa',
  'owner_no_2fa',
  'member',
  'support',
  ...(
    [
      'invoices:read',
      'invoices:write',
      'withdrawals:read',
      'withdrawals:write',
      'webhooks:manage',
      'orders:manage',
      'subscriptions:read',
      'subscriptions:write',
      'admin',
    ] as const
  ).map((s) => `api_key:${s}` as const),
  'payer_with_claim_token',
  'claim_link_holder',
  'stranger_with_invoice_id',
  'policy_job',
] as const;
export type Actor = (typeof ACTORS)[number];

/** The controls a path may apply to an actor who is allowed to start it. */
export const CONTROLS = {
  allowlist: 'the destination must be an active allow-list entry (when the owner switched the allow-list on)',
  daily_limit: 'the rolling 24 h limit, one limit in USD over every asset',
  approval_threshold: 'above the threshold the withdrawal waits for the owner (exchange: refused)',
  step_up: "the owner's authenticator code (when 2FA is on)",
  screening: "destination checks (ours, token contracts, deposit addresses in any family's form) and the token's freeze list",
  minimum: "the network's minimum withdrawal or refund",
  delay: "the auto-refund policy's delay (the one in force), during which the merchant can decline",
  sender_only: 'pays only the on-chain sender of the payment (nobody chooses the address)',
  payer_permission:
    "the payer's permission on the collector contract (token, cap per period, start): revoked, or a zero allowance, and nothing is pulled",
  once_per_period:
    "the current period's unpaid invoice only, into its own deposit address, once (the attempt's unique index and the contract's per-period cap)",
  payer_signature:
    "the payer's own signatures (the token's Permit and the collector's Authorize), rebuilt from the subscription's terms and checked before anything is sent: another signer, chain or expired deadline, and the gas wallet sends nothing; one transaction per signed pair",
} as const;
export type Control = keyof typeof CONTROLS;

/** Allowed, with these controls applied; or refused (with why, for the documentation). */
export type Grant = { controls: Control[]; note?: string } | { refused: string };

export interface MoneyPath {
  title: string;
  /** The /v1 operations (ids in lib/operations.ts) that start it; every withdrawals:write operation is in one path or in NOT_MONEY. */
  operations: string[];
  /** Where else it starts: dashboard actions, pages, jobs. */
  entry: string;
  actors: Record<Actor, Grant>;
}

const no = (why: string): Grant => ({ refused: why });
const NOT_OWNER = no('owner only (dashboard permission withdrawals:create)');
const NO_SCOPE = no('key without withdrawals:write (403 insufficient_scope)');
const NO_TENANT = no('support users have no tenant session; the console moves no money');
const NOT_PAYER = no('not a credential for this path');
const NOT_JOB = no('no job starts it');
const API_KEY_MONEY: Control[] = ['allowlist', 'daily_limit', 'approval_threshold', 'screening', 'minimum'];
const OWNER_MONEY: Control[] = ['step_up', 'screening', 'minimum'];
const OWNER_NO_2FA: Control[] = ['screening', 'minimum'];
const PAYER_SIGNED: Control[] = ['payer_signature', 'payer_permission'];

/** The keys' rows of a path only withdrawals:write (and admin) may start, with the given controls. */
const keys = (controls: Control[] | Grant): Record<`api_key:${Scope}`, Grant> => {
  const yes: Grant = Array.isArray(controls) ? { controls } : controls;
  return {
    'api_key:invoices:read': NO_SCOPE,
    'api_key:invoices:write': NO_SCOPE,
    'api_key:withdrawals:read': NO_SCOPE,
    'api_key:withdrawals:write': yes,
    'api_key:webhooks:manage': NO_SCOPE,
    'api_key:orders:manage': NO_SCOPE,
    'api_key:subscriptions:read': NO_SCOPE,
    'api_key:subscriptions:write': NO_SCOPE,
    'api_key:admin': yes,
  };
};
/** Every key's row the same: a path no /v1 operation starts, whatever the scope. */
const everyKey = (g: Grant) => Object.fromEntries(Object.keys(keys([])).map((a) => [a, g])) as Record<`api_key:${Scope}`, Grant>;
const outsiders = {
  payer_with_claim_token: NOT_PAYER,
  claim_link_holder: NOT_PAYER,
  stranger_with_invoice_id: NOT_PAYER,
} as const;

export const MONEY_PATHS = {
  withdrawal: {
    title: 'Withdrawal',
    operations: ['createWithdrawal'],
    entry: 'dashboard Balance → Withdraw',
    actors: {
      owner_2fa: { controls: OWNER_MONEY },
      owner_no_2fa: { controls: OWNER_NO_2FA },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys(API_KEY_MONEY),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  // Issue 47: every item is a withdrawal through createWithdrawal's own checks and controls (lib/payouts).
  batch_payout: {
    title: 'Batch payout (many withdrawals, all or nothing)',
    operations: ['createPayout'],
    entry: 'dashboard Payouts → upload, preview, confirm',
    actors: {
      owner_2fa: { controls: OWNER_MONEY, note: 'one step-up for the whole batch' },
      owner_no_2fa: { controls: OWNER_NO_2FA },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys({
        controls: API_KEY_MONEY,
        note: "each item as a withdrawal; the 24 h limit counts the items before it; the threshold is the batch's total, held as ONE approval",
      }),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  exchange_withdrawal: {
    title: 'Exchange withdrawal (another coin)',
    operations: ['createExchangeWithdrawal'],
    entry: 'dashboard Balance → Exchange',
    actors: {
      owner_2fa: { controls: ['step_up', 'minimum'] },
      owner_no_2fa: { controls: ['minimum'] },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys({
        controls: ['allowlist', 'daily_limit', 'approval_threshold', 'minimum'],
        note: 'above the threshold refused (approval_required); with the allow-list on, no memo / tag',
      }),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  merchant_refund: {
    title: 'Merchant refund of an invoice',
    operations: ['createRefund'],
    entry: 'dashboard invoice page → Refund',
    actors: {
      owner_2fa: { controls: OWNER_MONEY },
      owner_no_2fa: { controls: OWNER_NO_2FA },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys(API_KEY_MONEY),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  payer_proposal: {
    title: "Payer's refund address proposal (moves nothing until approved)",
    operations: [],
    entry: 'checkout /pay/<id>?claim=<token>',
    actors: {
      owner_2fa: NOT_PAYER,
      owner_no_2fa: NOT_PAYER,
      member: NOT_PAYER,
      support: NOT_PAYER,
      ...keys(NO_SCOPE),
      'api_key:withdrawals:write': NOT_PAYER,
      'api_key:admin': NOT_PAYER,
      payer_with_claim_token: { controls: ['screening'], note: 'rate-limited per client address and per invoice' },
      claim_link_holder: NOT_PAYER,
      stranger_with_invoice_id: no('an invoice id is never a credential (claim_token_required)'),
      policy_job: NOT_JOB,
    },
  },
  refund_request_approval: {
    title: 'Approval of a refund request (payer proposal or claim link)',
    operations: ['approveRefundRequest'],
    entry: 'dashboard invoice page → Approve',
    actors: {
      owner_2fa: { controls: OWNER_MONEY },
      owner_no_2fa: { controls: OWNER_NO_2FA },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys(API_KEY_MONEY),
      ...outsiders,
      policy_job: no('the policy acts through auto-refund, below'),
    },
  },
  claim_link_create: {
    title: 'Refund claim link: creation (says who may choose an address)',
    operations: ['createRefundClaim'],
    entry: 'dashboard invoice page → Refund claim links',
    actors: {
      owner_2fa: { controls: ['step_up', 'minimum'] },
      owner_no_2fa: { controls: ['minimum'] },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys({ controls: ['minimum'], note: 'skips step-up: its links are never auto-refunded' }),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  claim_link_redeem: {
    title: 'Refund claim link: redemption (moves nothing until approved)',
    operations: [],
    entry: '/refund-claim/<secret>',
    actors: {
      owner_2fa: NOT_PAYER,
      owner_no_2fa: NOT_PAYER,
      member: NOT_PAYER,
      support: NOT_PAYER,
      ...keys(NOT_PAYER),
      'api_key:withdrawals:write': NOT_PAYER,
      'api_key:admin': NOT_PAYER,
      payer_with_claim_token: NOT_PAYER,
      claim_link_holder: { controls: ['screening'], note: 'whoever holds the link; rate-limited per client address' },
      stranger_with_invoice_id: NOT_PAYER,
      policy_job: NOT_JOB,
    },
  },
  auto_refund: {
    title: 'Auto-refund (the policy pays a request by itself)',
    operations: [],
    entry: 'job auto-refunds (every 3 s)',
    actors: {
      owner_2fa: no('switching the policy on is the owner’s (step-up); the refund itself is the job’s'),
      owner_no_2fa: no('as above'),
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys(no('never: a key cannot change the policy, and its claim links never qualify')),
      ...outsiders,
      policy_job: {
        controls: ['delay', 'daily_limit', 'approval_threshold', 'screening', 'minimum', 'allowlist'],
        note: 'payer-token and owner-made claim-link requests only; allow-list on claim links (a listed address or the sender)',
      },
    },
  },
  held_payment_send_back: {
    title: 'Held payment sent back to its sender',
    operations: ['refundHeldPayment', 'refundMismatchedPayment'],
    entry: 'dashboard invoice page → Send back',
    actors: {
      owner_2fa: { controls: ['sender_only', 'screening', 'minimum'], note: 'no step-up: nobody chooses the address' },
      owner_no_2fa: { controls: ['sender_only', 'screening', 'minimum'] },
      member: NOT_OWNER,
      support: NO_TENANT,
      ...keys(['sender_only', 'screening', 'minimum']),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  held_withdrawal_approval: {
    title: 'Approval of a withdrawal held above the threshold',
    operations: [],
    entry: 'dashboard Settings → Awaiting your approval',
    actors: {
      owner_2fa: { controls: ['step_up'] },
      owner_no_2fa: { controls: [] },
      member: no('owner only (dashboard permission settings:manage)'),
      support: NO_TENANT,
      ...keys(no('no API: only the owner approves')),
      ...outsiders,
      policy_job: NOT_JOB,
    },
  },
  // Issue 48: the collector takes a period's amount from the payer's wallet; only the job, under the payer's permission.
  subscription_pull: {
    title: "Subscription pull (the collector takes a period's amount from the payer's wallet)",
    operations: [],
    entry: 'job subscription-collection (every 15 s)',
    actors: {
      owner_2fa: no('no dashboard page or action pulls: the payer’s permission and the job decide'),
      owner_no_2fa: no('as above'),
      member: no('as above'),
      support: NO_TENANT,
      ...everyKey(
        no(
          'no /v1 operation pulls, whatever the scope (GET /v1/subscriptions/{id}/collection only reads; POST …/collection keeps a permission only when the payer signed it on chain; POST …/collection/permit sends only the payer’s own signed permit and Authorize, which pull nothing; creating a subscription bills)',
        ),
      ),
      payer_with_claim_token: no(
        'the payer allows pulls on chain (approve, authorize), turns collection on at the checkout and off in the portal, and can revoke them; never starts one',
      ),
      claim_link_holder: NOT_PAYER,
      stranger_with_invoice_id: NOT_PAYER,
      policy_job: { controls: ['payer_permission', 'once_per_period'], note: 'the merchant pays its gas (pull_network_fee)' },
    },
  },
  // Issue 48: the gas wallet sends the payer's signed permitAndAuthorize (its gas the merchant's, setup_network_fee) and
  // the collector is given an allowance over the payer's USDC: the payer's signatures are the consent, never an id.
  subscription_permit_setup: {
    title: "USDC collection set-up by signature (the gas wallet sends the payer's permit; the collector gets an allowance)",
    operations: ['setUpSubscriptionCollectionByPermit'],
    entry: 'checkout /pay/<id>?claim=<token> and the customer portal → sign',
    actors: {
      owner_2fa: no('no dashboard page or action sets up collection: the payer signs at the checkout or in the portal'),
      owner_no_2fa: no('as above'),
      member: no('as above'),
      support: NO_TENANT,
      ...everyKey(no('key without subscriptions:write (403 insufficient_scope)')),
      'api_key:subscriptions:write': {
        controls: PAYER_SIGNED,
        note: 'forwards the payer’s own signed pair; the gas is charged to the merchant (setup_network_fee)',
      },
      'api_key:admin': {
        controls: PAYER_SIGNED,
        note: 'as subscriptions:write',
      },
      payer_with_claim_token: {
        controls: PAYER_SIGNED,
        note: 'the claim token of one of the subscription’s invoices (or a portal session)',
      },
      claim_link_holder: NOT_PAYER,
      stranger_with_invoice_id: no('an invoice or subscription id is never a credential (claim_token_required)'),
      policy_job: no('the collection job only resumes a set-up the payer’s signatures already recorded; never starts one'),
    },
  },
} satisfies Record<string, MoneyPath>;
export type MoneyPathId = keyof typeof MONEY_PATHS;

/** withdrawals:write operations that move no money, each with why (a new one must be placed in a path or here). */
export const NOT_MONEY: Record<string, string> = {
  declineRefundRequest: 'declines: nothing leaves',
  cancelRefundClaim: 'cancels a link: nothing leaves',
  createExchangeOrder: 'creates an order only; the balance is not touched',
};
