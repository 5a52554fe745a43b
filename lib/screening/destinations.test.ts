import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundClaims, screeningDecisions, withdrawals } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { redeemRefundClaim } from '@/lib/refunds/claims/redeem-refund-claim';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listAddresses, resetScreeningAfterEach } from '@/lib/testing/screening';
import { invoiceJobs, mineAndWatch, SCREENING_RAIL, withdrawOn, withScreeningChain } from '@/lib/testing/screening-chain';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { freshTronAddress, usdtOf } from '@/lib/testing/tron-lane-helpers';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { balanceOf, createInvoice, invoiceDetail, sendToken } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 46 §2, destinations: an address on the SDN snapshot is refused (400 destination_screened, nothing written) on
 * every path that pays one, the allow-list included, and a withdrawal queued before its address was listed stops in the
 * lane before signing. Before this, each of these was accepted (and the lane signed and sent).
 */
resetScreeningAfterEach();

const eth = withScreeningChain();
const SCREENED_MESSAGE = 'is on the sanctions list this gateway screens against (OFAC SDN): no money is sent there';

describe('EVM (anvil, Ethereum USDT)', () => {
  it('a withdrawal to a listed address, in any letter case, is 400 destination_screened; nothing is written or debited', async () => {
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    const listed = freshAddress();
    expect((await withdrawOn(t.test, { amount: '1.00', destinationAddress: listed })).status).toBe(201);
    listAddresses(listed.toLowerCase());
    for (const destinationAddress of [listed, listed.toLowerCase()]) {
      const res = await withdrawOn(t.test, { amount: '10.00', destinationAddress });
      expect([res.status, res.body.code], res.text).toEqual([400, 'destination_screened']);
      expect(res.body.message).toBe(`destinationAddress: ${SCREENED_MESSAGE}`);
    }
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toHaveLength(1);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('48.99');
  });

  it('a refund, a claim link and an allow-list entry to a listed address are refused; nothing is debited or recorded', async () => {
    const { chain, net } = eth;
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = invoiceJobs(t.db, net);
    await jobs();
    const inv = await createInvoice(t.test, { amount: '10.00', ...SCREENING_RAIL });
    await sendToken(chain, 'USDT', inv.depositAddress, '10');
    await mineAndWatch(chain, jobs);
    expect((await invoiceDetail(t.test, inv.id)).status).toBe('PAID_OUT');
    const listed = freshAddress();
    listAddresses(listed);
    const before = (await balanceOf(t.test, 'USDT')).available;

    const refund = await call('POST', `/v1/invoices/${inv.id}/refunds`, { key: t.test, body: { destinationAddress: listed, amount: '1.00' } });
    expect([refund.status, refund.body.code]).toEqual([400, 'destination_screened']);

    const link = await call('POST', '/v1/refund-claims', { key: t.test, body: { invoiceId: inv.id, amount: '1.00' } });
    expect(link.status, link.text).toBe(201);
    const token = String(link.body.url).split('/refund-claim/')[1]!;
    const redeemed = await redeemRefundClaim(t.db, token, { destinationAddress: listed }, { address: null }).then(
      () => null,
      (e: ApiError) => ({ status: e.status, code: e.code }),
    );
    expect(redeemed).toEqual({ status: 400, code: 'destination_screened' });
    const [claim] = await t.db.select().from(refundClaims).where(eq(refundClaims.id, link.body.id));
    expect(claim).toMatchObject({ status: 'OPEN', usedAt: null });

    const user = await createUser(t.db, {
      email: `scr-${process.pid}-${Date.now()}@example.com`,
      password: 'correct horse battery',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const s = { owner: { tenantId: t.tenant.id, mode: 'test' as const }, user, actor: userActor({ user }) };
    await expect(addAllowlistAddress(t.db, s, { address: listed })).rejects.toMatchObject({ code: 'destination_screened' });
    const tronListed = freshTronAddress();
    listAddresses(listed, tronListed);
    await expect(addAllowlistAddress(t.db, s, { address: tronListed })).rejects.toMatchObject({ code: 'destination_screened' });

    expect((await balanceOf(t.test, 'USDT')).available).toBe(before);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
  });

  it('a withdrawal queued before its destination was listed stops before signing, is given back, and the stop is recorded', async () => {
    const { chain, net } = eth;
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    await chain.mint(chain.addresses.hot, '1000', chain.tokenOf('USDT'));
    const to = freshAddress();
    const w = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
    expect(w.status, w.text).toBe(201);
    listAddresses(to);
    await processWithdrawals(t.db, net as LaneNetwork);
    const [row] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, w.body.id));
    expect(row).toMatchObject({ status: 'FAILED', signedTx: null, txHash: null, nonce: null });
    expect(row!.failureReason).toMatch(/sanctions list/);
    expect(await chain.tokenBalance(to, chain.tokenOf('USDT'))).toBe(0n);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('50.00');
    const decisions = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.targetId, w.body.id));
    expect(decisions).toMatchObject([
      { outcome: 'stopped', subject: 'destination', path: 'lane', family: 'evm', address: to.toLowerCase(), tenantId: t.tenant.id },
    ]);
  });
});

describe('TRON (stand-in node)', () => {
  let rail: TronRail;
  beforeAll(async () => {
    rail = await startTronRail();
    await rail.node.mintUsdt(rail.node.keys.hot.address, 1_000_000_000n);
  }, 60_000);
  afterAll(async () => {
    await rail?.stop();
  });
  const TRON = { chain: 'TRON', token: 'USDT' } as const;

  it('a withdrawal to a listed T… address is refused; one queued before listing stops before signing', async () => {
    const t = await fundedTenant('100');
    const listed = freshTronAddress();
    const queued = freshTronAddress();
    const w = await withdrawOn(t.test, { amount: '10.00', destinationAddress: queued, ...TRON });
    expect(w.status, w.text).toBe(201);
    listAddresses(listed, queued);
    const res = await withdrawOn(t.test, { amount: '5.00', destinationAddress: listed, ...TRON });
    expect([res.status, res.body.code], res.text).toEqual([400, 'destination_screened']);
    await processWithdrawals(t.db, rail.net);
    const [row] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, w.body.id));
    expect(row).toMatchObject({ status: 'FAILED', txHash: null });
    expect(await usdtOf(rail, queued)).toBe(0n);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toHaveLength(1);
    const [decision] = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.targetId, w.body.id));
    expect(decision).toMatchObject({ outcome: 'stopped', family: 'tron', address: expect.stringMatching(/^41[0-9a-f]{40}$/) });
  });
});
