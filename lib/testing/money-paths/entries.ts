import { desc, eq } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import type { ActionResult } from '@/lib/dashboard/action-result';
import type { Actor } from '@/lib/money-paths';
import { call, type CallResult } from '../app';
import { currentSession } from './session';
import type { World } from './world';

/** What an attempt came to: done (with what the entry returned), or refused with the error's code. */
export type Try = { ok: true; data: any } | { ok: false; code: string };
/** How a path is entered: a dashboard server action, a /v1 route, the checkout's proposal, the claim page, a job. */
export type Entry = 'action' | 'api' | 'checkout' | 'claim' | 'job';
/** What the actor presents: a dashboard session, an API key (Bearer), a token typed into the checkout or the claim page. */
export interface Cred {
  sid: string | null;
  key: string | null;
  token: string | null;
}
/** One attempt's input: the amount, the destination, the authenticator code sent with it. */
export interface Variant {
  amount: string;
  destination: string;
  totpCode?: string;
  /** Exchange withdrawals: the coin paid out (default BTC) and its memo / destination tag. */
  toCcy?: string;
  tag?: string;
  /** The job's clock (the auto-refund delay is the subject): default two hours on. */
  now?: Date;
  /** A subscription pull's subject whose payer revoked the permission on the collector (a permit set-up: under one period allowed). */
  revoked?: boolean;
  /** A permit set-up whose messages another wallet signed, not the payer's. */
  foreignSigner?: boolean;
}
/** What the path acts on (made by the world's owner as a fixture, before what is written is counted). */
export type Subject = {
  invoiceId: string;
  requestId?: string;
  paymentId?: string;
  withdrawalId?: string;
  linkSecret?: string;
  linkId?: string;
  /** A subscription pull's: the subscription, its payer and the job's clock (its period billed). */
  pull?: { subscriptionId: string; payer: `0x${string}`; at: Date };
  /** A permit set-up's: the subscription and its payer's key; `claim` is its invoice's claim token (the payer's). */
  permit?: { subscriptionId: string; payerKey: `0x${string}` };
  claim?: string;
};

export interface PathRunner {
  /** The amount and destination of an allowed attempt, and each way of asking for one the allow-list does not hold. */
  amount: string;
  destination: (w: World) => string;
  unlisted: (w: World) => Partial<Variant>[];
  subject: (w: World, v: Variant) => Promise<Subject>;
  entries: Partial<Record<Entry, (w: World, s: Subject, c: Cred, v: Variant) => Promise<Try>>>;
  /** An address screening refuses (a token contract), where the actor types the destination. */
  screened?: (w: World) => string;
  /** An amount under the path's minimum, where the actor types the amount. */
  belowMinimum?: string;
  /** Refusals compare only the ledger and withdrawals (the attempt's own link or request is the actor's to make). */
  moneyOnly?: boolean;
  /** What else a refusal must leave as it was (a path that spends gas: the gas wallet's transactions). */
  written?: (w: World) => Promise<Record<string, string>>;
}

/** A batch's refusal (payout_items_invalid) is named by its first item's code: what that item alone would get. */
export const fromAction = (r: ActionResult<unknown>): Try =>
  r.ok ? { ok: true, data: r.data } : { ok: false, code: (r.error.code === 'payout_items_invalid' && r.error.details?.[0]?.code) || r.error.code };
export const fromApi = (r: CallResult): Try => (r.status < 300 ? { ok: true, data: r.body } : { ok: false, code: String(r.body?.code ?? r.status) });
export async function fromLib(run: () => Promise<unknown>): Promise<Try> {
  try {
    return { ok: true, data: await run() };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, code: e.code };
    throw e;
  }
}

/** Runs a dashboard action as whoever holds `sid` (null: no session cookie). */
export async function asSession<T>(sid: string | null, run: () => Promise<ActionResult<T>>): Promise<Try> {
  currentSession.sid = sid;
  try {
    return fromAction(await run());
  } finally {
    currentSession.sid = null;
  }
}

export const api = (method: string, path: string, c: Cred, body?: unknown, headers?: Record<string, string>) =>
  call(method, path, { key: c.key, body, headers }).then(fromApi);

/** The newest withdrawal of the world's tenant (what an allowed attempt just made). */
export async function newestWithdrawal(w: World) {
  const [row] = await w.db.select().from(withdrawals).where(eq(withdrawals.tenantId, w.tenantId)).orderBy(desc(withdrawals.createdAt)).limit(1);
  return row;
}

const DASHBOARD = ['owner_2fa', 'owner_no_2fa', 'member', 'support'] as const;
type DashboardActor = (typeof DASHBOARD)[number];
const isDashboard = (a: Actor): a is DashboardActor => (DASHBOARD as readonly string[]).includes(a);

/** The entry an actor's credential is made for (where an allowed actor is tried). */
export function homeEntry(a: Actor): Entry {
  if (isDashboard(a)) return 'action';
  if (a.startsWith('api_key:')) return 'api';
  return ({ payer_with_claim_token: 'checkout', claim_link_holder: 'claim', stranger_with_invoice_id: 'checkout', policy_job: 'job' } as const)[
    a as 'payer_with_claim_token'
  ];
}

/** Every entry a refused actor is tried on: each place it could present what it holds (a job only runs). */
export function triedEntries(a: Actor): Entry[] {
  if (a === 'policy_job') return ['job'];
  if (isDashboard(a)) return ['action', 'checkout', 'claim'];
  if (a.startsWith('api_key:')) return ['api', 'checkout', 'claim'];
  return ['action', 'api', 'checkout', 'claim'];
}

/** What the actor presents on an entry: its own credential in whatever slot the entry reads. */
export function credOf(a: Actor, entry: Entry, w: World, s: Subject): Cred {
  const none: Cred = { sid: null, key: null, token: null };
  if (isDashboard(a)) {
    // A dashboard user can read the invoice, its requests and links (ids), never a payer's token or a link's secret.
    return { ...none, sid: w.sessions[a], token: entry === 'claim' ? (s.linkId ?? s.invoiceId) : null };
  }
  if (a.startsWith('api_key:')) {
    const key = w.keys[a.slice('api_key:'.length) as keyof World['keys']];
    return { ...none, key, token: key };
  }
  if (a === 'payer_with_claim_token') return { ...none, key: s.claim ?? w.claim, token: s.claim ?? w.claim };
  if (a === 'claim_link_holder') {
    const secret = s.linkSecret ?? w.linkSecret;
    return { ...none, key: secret, token: secret };
  }
  if (a === 'stranger_with_invoice_id') return { ...none, token: entry === 'claim' ? s.invoiceId : null };
  return none;
}
