import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refundRequests, withdrawals } from '@/db/schema';
import { type Network } from '@/lib/chain/network';
import { autoRefund, runAutoRefunds } from '@/lib/refunds/requests/auto-refund';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestKey } from '@/lib/testing/fixtures';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import { updateWithdrawalControls } from '@/lib/withdrawal-controls/update-withdrawal-controls';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import { createRefundClaim } from './create-refund-claim';
import { redeemRefundClaim } from './redeem-refund-claim';

/*
 * Issue 42 §1, the review's worst finding, as an attack: an API key with withdrawals:write on a tenant with the
 * allow-list and the auto-refund policy on. A direct refund to its own address is refused (allow-list); so it makes
 * a refund claim link by API (no step-up, unlike the dashboard), redeems the link itself and waits for the policy.
 * On d5460f4 the job paid the link's 49.00 to the attacker. The attacker must receive nothing.
 */
let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});
const { settledInvoice, onChain, send } = settledInvoices(() => ({ chain, net }));
const tokenOf = (url: unknown) => String(url).split('/refund-claim/')[1]!;
const session = (owner: { tenantId: string; mode: 'test' }) =>
  ({ owner, user: { id: 'usr_test', email: 'owner@example.com' }, actor: OWNER }) as never;
const OWNER = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };

describe('the claim-link attack', () => {
  it('a withdrawals:write key that makes a link by API and redeems it itself gets nothing, by the policy or by approving it', async () => {
    const t = await settledInvoice('50.00', '50.00', {
      extra: '10',
      setup: async (x) => {
        await updateAutoRefundPolicy(x.db, x.owner, OWNER, { autoRefundOverpayments: true, autoRefundDelaySeconds: 60 });
        await updateWithdrawalControls(x.db, session(x.owner), {
          allowlistEnabled: true,
          coolingOffHours: 24,
          dailyLimit: null,
          approvalThreshold: null,
        });
      },
    });
    const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['withdrawals:write'] });
    const attacker = freshAddress();

    const direct = await call('POST', `/v1/invoices/${t.invoice.id}/refunds`, { key, body: { destinationAddress: attacker, amount: '49.00' } });
    expect([direct.status, direct.body.code]).toEqual([403, 'destination_not_allowed']);

    const link = await call('POST', '/v1/refund-claims', { key, body: { invoiceId: t.invoice.id, amount: '49.00' } });
    expect(link.status, link.text).toBe(201);
    const token = tokenOf(link.body.url);
    const used = await redeemRefundClaim(t.db, token, { destinationAddress: attacker }, { address: `203.0.113.7:${process.pid}` });
    // Never automatic: the link was made with an API key, and its address is on no allow-list.
    expect(used.autoRefund).toBe(false);
    expect(used.request).toMatchObject({ autoRefundAfter: null, pendingReason: 'api_key_link' });

    // After the delay, the job (and a direct call) pay nothing.
    const later = new Date(Date.now() + 3_600_000);
    await runAutoRefunds(t.db, { now: later });
    expect(await autoRefund(t.db, used.request.id, later)).toBe('skipped');
    // A row made before the fix (due, no reason) is held at refund time for the same reason.
    await t.db
      .update(refundRequests)
      .set({ autoRefundAfter: new Date(Date.now() - 120_000), pendingReason: null, createdAt: new Date(Date.now() - 120_000) })
      .where(eq(refundRequests.id, used.request.id));
    expect(await autoRefund(t.db, used.request.id)).toBe('held');
    // Approving its own request with the key is a refund by API key: the allow-list refuses it.
    const approve = await call('POST', `/v1/refund-requests/${used.request.id}/approve`, { key, body: {} });
    expect([approve.status, approve.body.code]).toEqual([403, 'destination_not_allowed']);

    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    await send();
    expect(await onChain(attacker)).toBe('0');
    expect((await t.db.select().from(refundRequests).where(eq(refundRequests.id, used.request.id)))[0]).toMatchObject({
      status: 'PENDING',
      pendingReason: 'api_key_link',
      autoRefundAfter: null,
    });

    // The merchant declines it.
    await t.db.update(refundRequests).set({ status: 'DECLINED' }).where(eq(refundRequests.id, used.request.id));

    // The owner's own link (dashboard, step-up), with the allow-list on: an unlisted address waits for the merchant;
    // a listed address (or the payment's sender: money going back where it came from) is paid by the policy.
    const mine = await createRefundClaim(t.db, t.owner, { invoiceId: t.invoice.id, amount: '5.00' }, OWNER);
    const elsewhere = await redeemRefundClaim(
      t.db,
      tokenOf(mine.url),
      { destinationAddress: freshAddress() },
      { address: `203.0.113.8:${process.pid}` },
    );
    expect(elsewhere.request).toMatchObject({ autoRefundAfter: null, pendingReason: 'destination_not_allowed' });
    await t.db.update(refundRequests).set({ status: 'DECLINED' }).where(eq(refundRequests.id, elsewhere.request.id));
    // (The test chain pays from our faucet, so the payment's sender cannot be tried here; a listed address can.)
    const listed = freshAddress();
    await addAllowlistAddress(t.db, session(t.owner), { address: listed }, new Date(Date.now() - 25 * 3_600_000));
    const back = await createRefundClaim(t.db, t.owner, { invoiceId: t.invoice.id, amount: '5.00' }, OWNER);
    const home = await redeemRefundClaim(t.db, tokenOf(back.url), { destinationAddress: listed }, { address: `203.0.113.9:${process.pid}` });
    expect(home.request).toMatchObject({ pendingReason: null, autoRefundAfter: expect.any(Date) });
    expect(await autoRefund(t.db, home.request.id, new Date(Date.now() + 61_000))).toBe('refunded');
  });
});
