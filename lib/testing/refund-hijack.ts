import { and, eq, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { events, orders, refundRequests, withdrawals } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { searchConsole } from '@/lib/console/search';
import { can } from '@/lib/dashboard/permissions';
import { getCheckoutView } from '@/lib/checkout/get-checkout-view';
import { presentCheckout } from '@/lib/checkout/present-checkout';
import { getInvoice } from '@/lib/invoices/get-invoice';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { tapLog } from '@/lib/log';
import { autoRefund } from '@/lib/refunds/requests/auto-refund';
import { listRefundRequests } from '@/lib/refunds/requests/list-refund-requests';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import type { AnvilChain } from './anvil';
import { call } from './app';
import { createTestKey, createTestTenant } from './fixtures';
import { freshAddress } from './settled-invoice';

export interface HijackAttempt {
  who: 'member' | 'support' | 'invoices:read key' | 'orders:manage key' | 'payer';
  path: string;
  /** What answered: an error code, a status, or `accepted`. */
  outcome: string;
  /** The attempt moved (or could move) the refund to the attacker's address. */
  succeeded: boolean;
}

/** The claim token of a checkout URL (`/pay/<id>?claim=…`), if it carries one. */
export const claimOf = (url: unknown): string | undefined =>
  typeof url === 'string' ? (new URL(url, 'http://x').searchParams.get('claim') ?? undefined) : undefined;

let seq = 0;

/**
 * Issue 30 §1, the refund-hijack abuse: an overpaid invoice (10.00 paid 15.00) of a tenant whose auto-refund policy
 * is on, and a storefront order's invoice. A dashboard member, a support (console) user, an `invoices:read` key and
 * an `orders:manage` key each take what they can read (the dashboard's invoice and refund requests, console search,
 * GET /v1/invoices, /v1/orders, events) and every path they have to send the excess elsewhere: the checkout's
 * proposal with the invoice id and no token, or a token guessed from what they read, and the merchant refund and
 * approval paths (dashboard permissions, /v1 scopes). None may succeed, the claim token may appear in nothing they
 * read or in the log, and the payer with the token from the create response must get the refund.
 * `chain` is the test mode's network (the caller installs it).
 */
export async function runRefundHijack(chain: AnvilChain, net: Network) {
  const lines: string[] = [];
  const untap = tapLog((line) => lines.push(line));
  try {
    const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const { db } = t;
    // Other sales: the balance can pay the refund whatever the fee terms.
    await db.transaction((tx) =>
      postLedgerEntry(tx, {
        ...owner,
        amount: '50',
        currency: 'USDT',
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `hijack-${process.pid}-${++seq}`,
      }),
    );
    await chain.mint(chain.addresses.hot, '1000');
    const jobs = () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();

    // Auto-refund on before the payment (payments seen before switch-on are never automatic), with no delay: the
    // most dangerous setting, where a proposal is refunded at once.
    await updateAutoRefundPolicy(
      db,
      owner,
      { kind: 'user', id: 'usr_hijack', label: 'owner@example.com' },
      { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 },
    );
    const created = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    if (created.status !== 201) throw new Error(`invoice: ${created.text}`);
    const invoiceId = created.body.id as string;
    const token = claimOf(created.body.checkoutUrl);
    const paid = await call('POST', `/v1/test-helpers/invoices/${invoiceId}/pay`, { key: t.test, body: { amount: '15.00' } });
    if (paid.status !== 200) throw new Error(`pay: ${paid.text}`);
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    for (let i = 0; i < 4; i++) {
      await chain.mine(6);
      await jobs();
    }

    const readKey = (await createTestKey(db, { ...owner, scopes: ['invoices:read'] })).key;
    const ordersKey = (await createTestKey(db, { ...owner, scopes: ['orders:manage'] })).key;
    const product = await call('POST', '/v1/products', { key: t.test, body: { name: 'Beans', price: '10.00' } });
    const order = await call('POST', '/v1/orders', {
      key: t.test,
      body: { items: [{ productId: product.body.id, quantity: 1 }], customerEmail: 'c@example.com' },
    });
    if (order.status !== 201) throw new Error(`order: ${order.text}`);

    const attempts: HijackAttempt[] = [];
    const attacker = freshAddress();
    let ip = 0;
    const propose = async (who: HijackAttempt['who'], path: string, id: string, claimToken: string | undefined, to = attacker) => {
      try {
        const made = await proposeRefundAddress(db, id, { destinationAddress: to, claimToken }, { address: `203.0.113.${++ip}` });
        if (made.autoRefund) await autoRefund(db, made.request.id);
        attempts.push({ who, path, outcome: 'accepted', succeeded: true });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        attempts.push({ who, path, outcome: err.code, succeeded: false });
      }
    };
    const scoped = async (who: HijackAttempt['who'], key: string, method: 'POST', path: string, body: unknown) => {
      const res = await call(method, path, { key, body });
      attempts.push({ who, path: `${method} ${path}`, outcome: `${res.status} ${res.body?.code ?? ''}`.trim(), succeeded: res.status < 300 });
    };
    const dashboard = (who: HijackAttempt['who'], role: string, action: string) =>
      // The dashboard's refund, approve and decline actions ask actionContext('withdrawals:create'): the same `can`.
      attempts.push({
        who,
        path: `dashboard ${action}`,
        outcome: can(role, 'withdrawals:create') ? 'allowed' : 'forbidden',
        succeeded: can(role, 'withdrawals:create'),
      });

    // What each can read, and the URLs found there (a checkout URL with a token would be the credential).
    const seen: Record<string, string> = {
      'dashboard invoice page': JSON.stringify([
        await getInvoice(db, { ...owner, id: invoiceId }),
        await listRefundRequests(db, owner, { invoiceId, page: 1, limit: 20 }),
      ]),
      'console search': JSON.stringify(await searchConsole(db, invoiceId)),
      'GET /v1/invoices/:id': (await call('GET', `/v1/invoices/${invoiceId}`, { key: readKey })).text,
      'GET /v1/invoices': (await call('GET', '/v1/invoices', { key: readKey })).text,
      'GET /v1/orders/:id': (await call('GET', `/v1/orders/${order.body.id}`, { key: ordersKey })).text,
      'GET /v1/orders': (await call('GET', '/v1/orders', { key: ordersKey })).text,
      'public checkout': JSON.stringify(presentCheckout((await getCheckoutView(db, invoiceId))!, undefined)),
      events: JSON.stringify(await db.select({ data: events.data }).from(events).where(eq(events.tenantId, t.tenant.id))),
    };
    const readUrls = Object.values(seen).flatMap((s) => s.match(/\/pay\/inv_[0-9A-Za-z]+(\?[^"\\]*)?/g) ?? []);
    const guessed = readUrls.map(claimOf).find((c) => c !== undefined);

    await propose('member', 'checkout, invoice id only', invoiceId, undefined);
    await propose('member', 'checkout, token from the dashboard', invoiceId, guessed ?? 'x'.repeat(43));
    dashboard('member', 'member', 'refund');
    dashboard('member', 'member', 'approve refund request');
    await propose('support', 'checkout, invoice id from console search', invoiceId, undefined);
    await propose('support', 'checkout, a made-up token', invoiceId, 'A'.repeat(43));
    dashboard('support', 'support', 'refund');
    await propose('invoices:read key', 'checkout, invoice id from GET /v1/invoices', invoiceId, undefined);
    await propose('invoices:read key', 'checkout, an empty token', invoiceId, '');
    await scoped('invoices:read key', readKey, 'POST', `/v1/invoices/${invoiceId}/refunds`, { destinationAddress: attacker });
    // A merchant refund claim link would let its holder name the address: withdrawals:write, the owner in the dashboard.
    await scoped('invoices:read key', readKey, 'POST', '/v1/refund-claims', { invoiceId, amount: '1.00' });
    dashboard('member', 'member', 'create refund claim link');
    const orderInvoice = order.body.invoiceId as string;
    const orderToken = claimOf(order.body.checkoutUrl);
    const [orderRow] = await db
      .select()
      .from(orders)
      .where(eq(orders.id, order.body.id as string));
    await propose(
      'orders:manage key',
      'checkout, order checkoutUrl from GET /v1/orders',
      orderInvoice,
      claimOf(JSON.parse(seen['GET /v1/orders/:id']!).checkoutUrl),
    );
    await propose('orders:manage key', 'checkout, the other invoice with this order’s token', invoiceId, orderToken);
    await scoped('orders:manage key', ordersKey, 'POST', `/v1/invoices/${invoiceId}/refunds`, { destinationAddress: attacker });
    await scoped('orders:manage key', ordersKey, 'POST', '/v1/refund-claims', { invoiceId, amount: '1.00' });

    const toAttacker = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(refundRequests)
      .where(and(eq(refundRequests.tenantId, t.tenant.id), eq(refundRequests.destinationAddress, attacker.toLowerCase())));
    const paidToAttacker = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(withdrawals)
      .where(and(eq(withdrawals.tenantId, t.tenant.id), sql`lower(${withdrawals.destinationAddress}) = ${attacker.toLowerCase()}`));

    // The payer, with the token from the create response.
    const payerAddress = freshAddress();
    const payerStarted = performance.now();
    await propose('payer', 'checkout with the claim token', invoiceId, token, payerAddress);
    const payerMs = Math.round(performance.now() - payerStarted);
    const [payerRequest] = await db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.invoiceId, invoiceId), eq(refundRequests.destinationAddress, payerAddress.toLowerCase())));

    const leaks = token
      ? [
          ...Object.entries(seen)
            .filter(([, text]) => text.includes(token))
            .map(([where]) => where),
          ...(lines.some((l) => l.includes(token)) ? ['log'] : []),
          ...(JSON.stringify(await db.select({ data: events.data }).from(events).where(eq(events.tenantId, t.tenant.id))).includes(token)
            ? ['events']
            : []),
        ]
      : [];
    return {
      invoiceId,
      orderId: orderRow?.id,
      tokenIssued: token !== undefined && token.length >= 22,
      attempts,
      attackerRequests: toAttacker[0]!.n,
      attackerWithdrawals: paidToAttacker[0]!.n,
      payer: { request: payerRequest ?? null, refunded: payerRequest?.status === 'APPROVED' && payerRequest.withdrawalId !== null, ms: payerMs },
      leaks,
    };
  } finally {
    untap();
  }
}

/** The scenario's checks: each failed one, in words (empty when the scenario holds). */
export function refundHijackViolations(r: Awaited<ReturnType<typeof runRefundHijack>>): string[] {
  const v: string[] = [];
  if (!r.tokenIssued) v.push('the create response carried no claim token');
  for (const a of r.attempts.filter((a) => a.who !== 'payer' && a.succeeded)) v.push(`${a.who} succeeded by ${a.path} (${a.outcome})`);
  if (r.attackerRequests > 0) v.push(`${r.attackerRequests} refund requests to the attacker's address written`);
  if (r.attackerWithdrawals > 0) v.push(`${r.attackerWithdrawals} withdrawals to the attacker's address`);
  if (!r.payer.refunded) v.push(`the payer with the token was not refunded (${r.attempts.find((a) => a.who === 'payer')?.outcome})`);
  if (r.payer.request && r.payer.request.source !== 'payer_token') v.push(`payer's request recorded with source ${r.payer.request.source}`);
  for (const where of r.leaks) v.push(`claim token readable in ${where}`);
  return v;
}
