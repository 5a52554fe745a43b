import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { heldPayments, refundRequests } from '@/db/schema';
import { SCOPES, type Scope } from '@/lib/api/scopes';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { createSession } from '@/lib/auth/sessions';
import { totpCode } from '@/lib/auth/totp';
import { confirmTotpEnrollment, startTotpEnrollment } from '@/lib/auth/two-factor';
import type { Network } from '@/lib/chain/network';
import { rowsOf } from '@/lib/db';
import { newId } from '@/lib/ids';
import { createRefundClaim } from '@/lib/refunds/claims/create-refund-claim';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import { dailyLimitUsed } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import { updateWithdrawalControls, type OwnerSession } from '@/lib/withdrawal-controls/update-withdrawal-controls';
import type { AnvilChain } from '../anvil';
import { createTestKey } from '../fixtures';
import { freshAddress, settledInvoices } from '../settled-invoice';

/** The controls every path is tried under (issue 42: a tenant with every control on). */
export const LIMIT = '400';
export const THRESHOLD = '50';
export const OVER_THRESHOLD = '51.00';
export const BTC_LISTED = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const BTC_UNLISTED = 'bc1q9h7garjuf6r0g8h2xq4m5n6p7r8s9t0u2v3w4x';
/** An exchange's shared XRP deposit address, listed by the owner (no destination tag listed). */
export const XRP_LISTED = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const PASSWORD = 'a-long-enough-password';

export type World = Awaited<ReturnType<typeof buildWorld>>;

/**
 * One tenant with settled money (an invoice of 100.00 paid 1,500.00 on the test chain and settled, 3,000 more
 * credited through the ledger), the allow-list on with one EVM and one BTC address past cooling-off, a 24 h limit,
 * an approval threshold, the auto-refund policy on (1 h delay); an owner with 2FA, an owner without, a member, a
 * support user, each with a session; a key per scope; the payer's claim token.
 */
export async function buildWorld(chain: AnvilChain, net: Network) {
  const { settledInvoice } = settledInvoices(() => ({ chain, net }));
  const t = await settledInvoice('100.00', '1500.00', {
    extra: '3000',
    setup: (x) =>
      updateAutoRefundPolicy(
        x.db,
        x.owner,
        { kind: 'user', id: 'usr_matrix', label: 'owner@example.com' },
        {
          autoRefundOverpayments: true,
          autoRefundDelaySeconds: 3600,
        },
      ),
  });
  const db = t.db;
  const owner = t.owner;
  const tag = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const user = (role: 'owner' | 'member' | 'support', name: string) =>
    createUser(db, { email: `mp-${name}-${tag}@example.com`, password: PASSWORD, role, tenantId: role === 'support' ? undefined : t.tenant.id });
  const owner2fa = await user('owner', 'owner2fa');
  const ownerPlain = await user('owner', 'owner');
  const member = await user('member', 'member');
  const support = await user('support', 'support');
  const session = (u: { id: string; email: string; role: string }): OwnerSession => ({ owner, user: u, actor: userActor({ user: u }) });

  await updateWithdrawalControls(db, session(ownerPlain), {
    allowlistEnabled: true,
    coolingOffHours: 24,
    dailyLimit: LIMIT,
    approvalThreshold: THRESHOLD,
  });
  const listed = freshAddress();
  const dayAgo = new Date(Date.now() - 25 * 3_600_000);
  await addAllowlistAddress(db, session(ownerPlain), { address: listed }, dayAgo);
  await addAllowlistAddress(db, session(ownerPlain), { address: BTC_LISTED }, dayAgo);
  await addAllowlistAddress(db, session(ownerPlain), { address: XRP_LISTED }, dayAgo);

  const { secret } = await startTotpEnrollment(db, owner2fa.id);
  await confirmTotpEnrollment(db, owner2fa.id, { code: totpCode(secret, Date.now() - 30_000) });

  const keys = {} as Record<Scope, string>;
  for (const s of SCOPES) keys[s] = (await createTestKey(db, { ...owner, scopes: [s] })).key;
  const sid = async (u: { id: string }) => (await createSession(db, u.id)).id;
  const sessions = {
    owner_2fa: await sid(owner2fa),
    owner_no_2fa: await sid(ownerPlain),
    member: await sid(member),
    support: await sid(support),
  };
  // A link of the owner's, held by the claim-link holder wherever the path is not its own redemption.
  const link = await createRefundClaim(
    db,
    owner,
    { invoiceId: t.invoice.id, amount: '1.00' },
    { kind: 'user', id: ownerPlain.id, label: ownerPlain.email },
  );
  let ip = 0;

  return {
    db,
    chain,
    net,
    owner,
    tenantId: t.tenant.id,
    invoiceId: t.invoice.id as string,
    claim: t.claim!,
    linkSecret: String(link.url).split('/refund-claim/')[1]!,
    listed,
    keys,
    sessions,
    ownerSession: session(ownerPlain),
    code: () => totpCode(secret),
    /** A client address of its own per call: the checkout's and the claim page's per-address limits are not the subject. */
    client: () => ({ address: `198.51.100.${++ip % 250}:${tag}-${ip}` }),
    async remaining() {
      return (Number(LIMIT) - Number(await dailyLimitUsed(db, owner))).toFixed(2);
    },
    /** Pending requests of earlier rows declined (a fixture write), so a job run acts only on the row's own subject. */
    async quiet() {
      await db
        .update(refundRequests)
        .set({ status: 'DECLINED' })
        .where(and(eq(refundRequests.tenantId, t.tenant.id), eq(refundRequests.status, 'PENDING')));
    },
    /** A held payment on the invoice, as the watcher records one: 10 USDT from a person's wallet. */
    async heldPayment() {
      const id = newId('payment');
      await db.insert(heldPayments).values({
        id,
        mode: 'test',
        chainId: net.chainId,
        chain: 'BSC',
        token: 'USDT',
        tokenAddress: chain.token.toLowerCase(),
        txHash: `0x${randomUUID().replace(/-/g, '').padEnd(64, '0')}`,
        logIndex: 0,
        blockNumber: 1,
        blockHash: `0x${'56'.repeat(32)}`,
        blockTime: new Date(),
        fromAddress: freshAddress().toLowerCase(),
        toAddress: `0x${'9a'.repeat(20)}`,
        amount: '10',
        invoiceId: t.invoice.id,
        tenantId: t.tenant.id,
        mismatch: 'token',
      });
      return id;
    },
    /** What a refusal must leave unwritten: the tenant's ledger, withdrawals, refund requests, links, events, orders, sent-back payments. */
    async written() {
      return rowsOf<Record<string, string>>(
        await db.execute(sql`select
          (select count(*) from ledger_entries where tenant_id = ${t.tenant.id})::text as ledger,
          (select count(*) from withdrawals where tenant_id = ${t.tenant.id})::text as withdrawals,
          (select count(*) from refund_requests where tenant_id = ${t.tenant.id})::text as requests,
          (select count(*) from refund_claims where tenant_id = ${t.tenant.id})::text as claims,
          (select count(*) from events where tenant_id = ${t.tenant.id})::text as events,
          (select count(*) from exchange_orders where tenant_id = ${t.tenant.id})::text as orders,
          (select count(*) from mismatched_payments where tenant_id = ${t.tenant.id} and status <> 'held')::text as sent_back`),
      )[0]!;
    },
    unlisted: (): Address => freshAddress(),
  };
}
