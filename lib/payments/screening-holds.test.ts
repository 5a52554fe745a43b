import { and, eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, events, heldPayments, screeningDecisions } from '@/db/schema';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { call } from '@/lib/testing/app';
import { listAddresses, resetScreeningAfterEach } from '@/lib/testing/screening';
import { mineAndWatch, payFromCustomer, withScreeningChain } from '@/lib/testing/screening-chain';
import { setScreeningList } from '@/lib/screening/screening-list';
import { payFromNewTronWallet } from '@/lib/testing/tron-lane-helpers';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { balanceOf, invoiceDetail } from '@/lib/testing/two-rails';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import type { Db } from '@/lib/db';
import { reviewScreeningHold } from './review-screening-hold';

/*
 * Issue 46 §2, payers: a payment whose sender is on the SDN snapshot is held at detection (not counted, not credited,
 * no invoice.* payment events, payment.screening_hold), the merchant cannot credit or send it back, and only a
 * compliance user releases it (credited exactly once) or keeps it frozen. Before this, it paid the invoice.
 */
resetScreeningAfterEach();

const eth = withScreeningChain();

const compliance = (id = 'usr_compliance') => ({ user: { id, role: 'compliance' }, actor: { kind: 'support' as const, id, label: 'c@example.com' } });
const typesOf = async (db: Db, tenantId: string) => (await db.select().from(events).where(eq(events.tenantId, tenantId))).map((e) => e.type).sort();

describe('EVM (anvil, Ethereum USDT)', () => {
  it('a listed sender’s payment is held for review, never counted; the merchant cannot credit or send it back; a compliance release credits it once', async () => {
    const { chain } = eth;
    // The customer's wallet is always the same sender: listed before it pays.
    const { t, inv, jobs, detail } = await payFromCustomer(eth, async () => listAddresses(privateKeyToAccount(chain.keys.other).address), {
      invoiceFeeRate: '0.01',
    });
    expect(detail).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(detail.heldPayments).toMatchObject([{ mismatch: 'screening', status: 'held', amount: '10.00' }]);
    const heldId = detail.heldPayments[0].id as string;
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toEqual([]);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('0.00');
    expect(await typesOf(t.db, t.tenant.id)).toEqual(['invoice.created', 'payment.screening_hold']);

    for (const action of ['credit', 'refund']) {
      const res = await call('POST', `/v1/invoices/${inv.id}/held-payments/${heldId}/${action}`, { key: t.test, body: {} });
      expect([res.status, res.body.code], res.text).toEqual([409, 'invalid_state']);
      expect(res.body.message).toMatch(/held for review by the operator/);
    }
    // A support user without the compliance role cannot decide.
    await expect(
      reviewScreeningHold(t.db, { ...compliance('usr_support'), user: { id: 'usr_support', role: 'support' } }, heldId, 'release'),
    ).rejects.toMatchObject({
      code: 'forbidden',
    });

    // Still on the list: not released (it stays held). Delisted by a later import, it is released, once.
    await expect(reviewScreeningHold(t.db, compliance(), heldId, 'release')).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/sanctions list .* stays held/),
    });
    expect((await t.db.select().from(heldPayments).where(eq(heldPayments.id, heldId)))[0]).toMatchObject({ status: 'held' });
    setScreeningList(null);
    await reviewScreeningHold(t.db, compliance(), heldId, 'release');
    await expect(reviewScreeningHold(t.db, compliance(), heldId, 'release')).rejects.toMatchObject({ code: 'invalid_state' });
    await mineAndWatch(chain, jobs);
    expect(await invoiceDetail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountReceived: '10.00' });
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toHaveLength(1);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('9.90');
    const decisions = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.targetId, heldId));
    expect(decisions.map((d) => [d.outcome, d.subject, d.actorId]).sort()).toEqual([
      ['held', 'payer', null],
      ['released', 'payer', 'usr_compliance'],
    ]);
  });
});

describe('TRON (stand-in node)', () => {
  let rail: TronRail;
  beforeAll(async () => {
    rail = await startTronRail();
  }, 60_000);
  afterAll(async () => {
    await rail?.stop();
  });

  it('a listed T… sender’s payment is held, not swept nor credited; kept frozen, it stays so', async () => {
    const t = await fundedTenant('5');
    const jobs = () => runInvoiceJobs(t.db, rail.net, { retry: { maxAttempts: 2, backoffMs: 0 }, hooks: { onWait: () => rail.node.mine(1) } });
    await jobs();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '20.00', chain: 'TRON', token: 'USDT' } });
    expect(inv.status, inv.text).toBe(201);
    const payer = await payFromNewTronWallet(rail, inv.body.depositAddress, parseUnits('20', 6));
    listAddresses(payer);
    for (let i = 0; i < 3; i++) {
      await rail.node.mine(rail.net.confirmations + 1);
      await jobs();
    }
    const detail = await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test });
    expect(detail.body).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    const [held] = await t.db.select().from(heldPayments).where(eq(heldPayments.invoiceId, inv.body.id));
    expect(held).toMatchObject({ mismatch: 'screening', status: 'held', sweep: null, settlementId: null });
    await reviewScreeningHold(t.db, compliance(), held!.id, 'keep_frozen');
    for (let i = 0; i < 2; i++) {
      await rail.node.mine(rail.net.confirmations + 1);
      await jobs();
    }
    const [after] = await t.db.select().from(heldPayments).where(eq(heldPayments.id, held!.id));
    expect(after).toMatchObject({ status: 'frozen', sweep: null, settlementId: null });
    expect((await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test })).body).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    const decisions = await t.db
      .select()
      .from(screeningDecisions)
      .where(and(eq(screeningDecisions.targetId, held!.id), eq(screeningDecisions.family, 'tron')));
    expect(decisions.map((d) => d.outcome).sort()).toEqual(['held', 'kept_frozen']);
  });
});
