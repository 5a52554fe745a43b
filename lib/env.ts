import { z } from 'zod';
import { NETWORK_ENV, RAIL_ENV, networkEnvProblems } from '@/lib/config/network-env';
import { decodeSecretsKey, DEV_SECRETS_ENCRYPTION_KEY } from '@/lib/config/secrets-key';
import { EXCHANGE_ENV } from '@/lib/config/exchange-env';
import { NETWORK_COST_ENV } from '@/lib/config/network-costs';
import { EXCHANGE_WALLET_ENV } from '@/lib/config/exchange-wallets';
import { OBSERVABILITY_ENV } from '@/lib/config/observability-env';
import { SCREENING_ENV } from '@/lib/config/screening-env';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** A 32-byte key, base64 or hex; empty counts as unset. */
const encryptionKey = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
  .refine((v) => v === undefined || decodeSecretsKey(v) !== null, {
    message: 'must be 32 bytes, base64 (`openssl rand -base64 32`) or 64 hex characters',
  });

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).optional(),
  /** development | test | production. Production turns on HTTPS enforcement, HSTS and refuses dev secrets. */
  APP_ENV: z.enum(['development', 'test', 'production']).optional(),
  /** Postgres connection string. Unset: the embedded PGlite database under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Trust X-Forwarded-Proto / X-Forwarded-For from the load balancer in front of the app. */
  TRUST_PROXY: bool,
  /** Run the job worker inside the web process (the default with the embedded database). */
  WORKER_INLINE: bool,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Per-mode chain networks and wallets: lib/chain/network-env.ts. */
  ...NETWORK_ENV,
  /** Rails besides BSC USDT and their networks: RAILS, <MODE>_<CHAIN>_* (lib/config/network-env.ts). */
  ...RAIL_ENV,
  /** Per-network minimum withdrawal, flat network fee, sweep minimum, gas coin price (lib/config/network-costs.ts). */
  ...NETWORK_COST_ENV,
  /** Exchange service (FixedFloat API v2): lib/exchange/env.ts. */
  ...EXCHANGE_ENV,
  /** Known exchange hot wallets: held payments are never sent back to them (lib/config/exchange-wallets.ts). */
  ...EXCHANGE_WALLET_ENV,
  /** Metrics, tracing, the operator token and the solvency job: lib/config/observability-env.ts. */
  ...OBSERVABILITY_ENV,
  /** Optional screening adapters (Chainalysis sanctions API, a scoring URL): off by default (docs/screening.md). */
  ...SCREENING_ENV,
  /**
   * Webhook SSRF allow-list for development and tests: comma-separated IPs or
   * CIDRs (e.g. `127.0.0.0/8,::1`) that deliveries may reach although private.
   * Refused in production.
   */
  WEBHOOK_ALLOW_PRIVATE_HOSTS: z.string().default(''),
  /**
   * Test-only: multiplies the webhook retry delays (0.001 turns 30 s into 30 ms)
   * so end-to-end tests can dead-letter a delivery quickly. Refused in production.
   */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /**
   * EVM payout items per disperse transaction (docs/payouts.md, "The cap"): ~28k gas each, so the default 200 is
   * ~5.6M gas; the maximum keeps one batch under a 30M block. Unset: DEFAULT_DISPERSE_CAP.
   */
  PAYOUT_BATCH_CAP: z.coerce.number().int().min(1).max(800).optional(),
  /**
   * Signs dashboard session cookies (next-auth). Required in production; outside
   * production a fixed development value is used when unset.
   */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Encrypts the secrets the gateway must read back (webhook and postback
   * signing secrets, TOTP secrets) at rest: lib/crypto/secret-box.ts. Required
   * in production; outside production a fixed development key is used when unset.
   */
  SECRETS_ENCRYPTION_KEY: encryptionKey,
  /** The key before the last rotation: still opens values until `gateway secrets:reencrypt` has rewritten them. */
  SECRETS_ENCRYPTION_KEY_PREVIOUS: encryptionKey,
  /** Public dashboard sign-up (creates a tenant and its owner); false leaves invitations and the CLI. */
  SIGNUP_ENABLED: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((v) => v !== 'false' && v !== '0'),
  /** Dashboard sessions end this many hours after sign-in. */
  SESSION_MAX_AGE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /** Sign-in attempts per account and client address per 15 minutes before that pair is locked (docs/dashboard.md). */
  LOGIN_PAIR_LIMIT: z.coerce.number().int().min(1).max(1000).default(5),
  /** Sign-in attempts per client address (any accounts) per 15 minutes before the address is locked. */
  LOGIN_ADDRESS_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Sign-in attempts per account from all addresses per 15 minutes before unknown addresses are locked out of it. */
  LOGIN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Dashboard sign-ups per client address per hour before the address is slowed. */
  SIGNUP_ADDRESS_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Turning 2FA off or regenerating recovery codes: attempts per user per 15 minutes before slowing. */
  TWO_FACTOR_CHANGE_LIMIT: z.coerce.number().int().min(1).max(1000).default(5),
  /** Worker threads hashing passwords (argon2id); 0 means one fewer than the cores (at least one). */
  PASSWORD_HASH_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  /** CPU priority of the hashing threads (Linux nice, 0-19; higher yields more to requests and the database). */
  PASSWORD_HASH_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** Ordinary (not owner-from-known-address) hashes started per second per process at most; 0: unpaced. */
  PASSWORD_HASH_RATE: z.coerce.number().min(0).max(10_000).default(4),
  /** Hashes waiting for a thread beyond which sign-in and sign-up answer "busy" instead of queueing. */
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(1).max(100_000).default(64),
  /** Orders one client address may place on public store pages per minute (all stores together). */
  STORE_ORDERS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Orders one store (tenant and mode) accepts per minute, store page and /v1/orders together. */
  STORE_ORDERS_PER_STORE_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Unpaid (PENDING_PAYMENT) orders one store may hold at once; they cancel when their 30-minute invoice expires. */
  STORE_MAX_OPEN_ORDERS: z.coerce.number().int().min(1).default(500),
  /** Invoices one client address may create on payment link pages per minute (docs/limits.md). */
  PAYMENT_LINK_INVOICES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Invoices one payment link may create per minute, all payers together. */
  PAYMENT_LINK_INVOICES_PER_LINK_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Unpaid, unexpired invoices one payment link may hold; past it the page asks payers to come back later. */
  PAYMENT_LINK_MAX_OPEN_INVOICES: z.coerce.number().int().min(1).default(100),
  /** Checkout status polls one client address (IPv6: its /64) may make per minute, per process (the page polls every 2 s). */
  CHECKOUT_STATUS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** How long a checkout status answer is reused for every poll of that invoice, per process (0: off). */
  CHECKOUT_STATUS_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /** Anonymous GET /api/ready requests one client address (IPv6: its /64) may make per minute, per process (probes: every few seconds). */
  READY_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** How long one round of readiness reads (database, every enabled node) answers every /api/ready caller, per process. */
  READY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Refund addresses one client address may propose on checkout pages per minute, all invoices together. */
  REFUND_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Refund addresses a payer may propose for one invoice in all (each new one supersedes the undecided one). */
  REFUND_REQUESTS_MAX_PER_INVOICE: z.coerce.number().int().min(1).default(5),
  /** Webhook attempts one worker keeps in flight at once. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(128),
  /** Delivery attempts one tenant may have in flight per worker (default: a quarter of WEBHOOK_CONCURRENCY, at least 2). */
  WEBHOOK_TENANT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).optional(),
  /** Outgoing mail (issue 48), e.g. smtp://user:pass@smtp.example.com:587; unset: e-mails wait in the outbox, unsent. */
  SMTP_URL: z.string().optional(),
  /** The From of every e-mail (the merchant's name is shown beside it). */
  EMAIL_FROM: z.string().default('Payments <payments@localhost>'),
  /**
   * Test mode mails only reserved test domains (example.com, *.test, *.example, *.invalid, localhost) unless listed
   * here: comma-separated addresses and `@domain`s, or `*` for every address (a local catcher such as maildev).
   */
  EMAIL_TEST_RECIPIENTS: z.string().optional(),
});

export type Env = z.infer<typeof EnvSchema> & { APP_ENV: 'development' | 'test' | 'production' };

let cached: Env | undefined;

/** Parses process.env once; a missing or malformed variable stops start-up with its name. */
export function env(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    const message = `Invalid environment configuration:\n${lines.join('\n')}`;
    console.error(message);
    throw new Error(message);
  }
  const appEnv = parsed.data.APP_ENV ?? (parsed.data.NODE_ENV === 'production' ? 'production' : 'development');
  const networkProblems = networkEnvProblems(parsed.data, appEnv);
  if (networkProblems.length > 0) {
    const message = `Invalid environment configuration:\n${networkProblems.map((l) => `  ${l}`).join('\n')}`;
    console.error(message);
    throw new Error(message);
  }
  if (appEnv === 'production' && (parsed.data.WEBHOOK_ALLOW_PRIVATE_HOSTS.trim() !== '' || parsed.data.WEBHOOK_RETRY_SCALE !== 1)) {
    const message = 'Invalid environment configuration:\n  WEBHOOK_ALLOW_PRIVATE_HOSTS / WEBHOOK_RETRY_SCALE: not allowed in production';
    console.error(message);
    throw new Error(message);
  }
  if (appEnv === 'production' && !parsed.data.AUTH_SECRET) {
    const message = 'Invalid environment configuration:\n  AUTH_SECRET: required in production (e.g. `openssl rand -base64 32`)';
    console.error(message);
    throw new Error(message);
  }
  if (appEnv === 'production' && !parsed.data.SECRETS_ENCRYPTION_KEY) {
    const message = 'Invalid environment configuration:\n  SECRETS_ENCRYPTION_KEY: required in production (32 bytes, e.g. `openssl rand -base64 32`)';
    console.error(message);
    throw new Error(message);
  }
  if (appEnv === 'production' && decodeSecretsKey(parsed.data.SECRETS_ENCRYPTION_KEY!)!.equals(DEV_SECRETS_ENCRYPTION_KEY)) {
    const message = 'Invalid environment configuration:\n  SECRETS_ENCRYPTION_KEY: the development key is refused in production';
    console.error(message);
    throw new Error(message);
  }
  cached = { ...parsed.data, APP_ENV: appEnv };
  return cached;
}

export function isProduction(): boolean {
  return env().APP_ENV === 'production';
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
