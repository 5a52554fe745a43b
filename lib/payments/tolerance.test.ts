import { eq } from 'drizzle-orm';
import { type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { auditLog, events } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { type Network } from '@/lib/chain/network';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { UnderpaymentToleranceInput } from '@/lib/tenants/schemas';
import { updateUnderpaymentTolerance } from '@/lib/tenants/update-underpayment-tolerance';

const ACTOR = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { statusForReceived } from '@/lib/invoices/transitions';

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

async function setup(tolerance: string) {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, { underpaymentTolerancePercent: tolerance });
  const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
  await jobs();
  return { ...t, jobs };
}

async function create(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/invoices', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function pay(key: string, id: string, amount: string) {
  const res = await call('POST', `/v1/test-helpers/invoices/${id}/pay`, { key, body: { amount } });
  expect(res.status, res.text).toBe(200);
  await chain.client.waitForTransactionReceipt({ hash: res.body.txHash as Hex });
}

const detail = async (key: string, id: string) => (await call('GET', `/v1/invoices/${id}`, { key })).body;
const types = async (db: any, id: string) =>
  (await db.select({ type: events.type }).from(events).where(eq(events.subjectId, id)).orderBy(events.createdAt, events.id)).map((e: any) => e.type);

describe('underpayment tolerance', () => {
  it('the one status decision: within the tolerance is DETECTED with the shortfall, below it PARTIALLY_PAID, above OVERPAID', () => {
    const terms = { amountExpected: '100', underpaymentTolerancePercent: '0.5' };
    expect(statusForReceived('99.5', terms)).toEqual({ status: 'DETECTED', amountShortfall: '0.5' });
    expect(statusForReceived('99.49', terms)).toEqual({ status: 'PARTIALLY_PAID', amountShortfall: '0' });
    expect(statusForReceived('100', terms)).toEqual({ status: 'DETECTED', amountShortfall: '0' });
    expect(statusForReceived('100.01', terms)).toEqual({ status: 'OVERPAID', amountShortfall: '0' });
    expect(statusForReceived('99.99', { ...terms, underpaymentTolerancePercent: '0' })).toMatchObject({ status: 'PARTIALLY_PAID' });
  });

  it('0.3 % short within a 0.5 % tolerance is paid: PAID_OUT, shortfall recorded, the ledger credits what arrived', async () => {
    const t = await setup('0.5');
    const inv = await create(t.test, { amount: '200.00' });
    expect(inv).toMatchObject({ underpaymentTolerancePercent: '0.5', amountShortfall: '0.00' });
    await pay(t.test, inv.id, '199.40');
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'DETECTED', amountShortfall: '0.60', amountReceived: '199.40' });
    await chain.mine(5);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountShortfall: '0.60', amountCredited: '197.41', feeAmount: '1.99' });
    expect(new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed()).toBe('197.41');
    const seen = await types(t.db, inv.id);
    expect(seen).toEqual(expect.arrayContaining(['invoice.created', 'invoice.detected', 'invoice.confirmed']));
    expect(seen).not.toContain('invoice.partial');

    // The payer tops up the 0.60 later: the shortfall is gone, the extra is swept and credited on its own.
    await pay(t.test, inv.id, '0.60');
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'PAID_OUT', amountReceived: '200.00', amountShortfall: '0.00' });
    await chain.mine(5);
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ amountCredited: '198.00' });
  });

  it('0.6 % short with a 0.5 % tolerance is PARTIALLY_PAID; the remainder makes it paid with no shortfall', async () => {
    const t = await setup('0.5');
    const inv = await create(t.test, { amount: '100.00' });
    await pay(t.test, inv.id, '99.40');
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'PARTIALLY_PAID', amountShortfall: '0.00' });
    expect(await types(t.db, inv.id)).toContain('invoice.partial');
    await pay(t.test, inv.id, '0.60');
    await t.jobs();
    expect(await detail(t.test, inv.id)).toMatchObject({ status: 'DETECTED', amountReceived: '100.00', amountShortfall: '0.00' });
  });

  it('the tolerance is frozen on the invoice at creation: a later settings change does not move it', async () => {
    const t = await setup('0.5');
    const before = await create(t.test, { amount: '100.00' });
    await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, { underpaymentTolerancePercent: '0' });
    const after = await create(t.test, { amount: '100.00' });
    expect(after.underpaymentTolerancePercent).toBe('0');
    await pay(t.test, before.id, '99.70');
    await pay(t.test, after.id, '99.70');
    await t.jobs();
    expect(await detail(t.test, before.id)).toMatchObject({ status: 'DETECTED', underpaymentTolerancePercent: '0.5', amountShortfall: '0.30' });
    expect(await detail(t.test, after.id)).toMatchObject({ status: 'PARTIALLY_PAID', underpaymentTolerancePercent: '0' });
  });

  it('GET /v1/tenants/me shows the tolerance; bad values are 400 validation_failed', async () => {
    const t = await createTestTenant();
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.underpaymentTolerancePercent).toBe('0');
    for (const bad of ['-1', '5.01', '6', 'abc', '0.123', '', '1e1', 0.5, null]) {
      const err = await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, {
        underpaymentTolerancePercent: bad,
      }).catch((e) => e);
      expect(err, String(bad)).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'validation_failed', status: 400 });
    }
    for (const [given, stored] of [
      ['5.00', '5'],
      ['05', '5'],
      ['0', '0'],
      ['0.05', '0.05'],
      [' 1.10 ', '1.1'],
    ])
      expect(UnderpaymentToleranceInput.parse({ underpaymentTolerancePercent: given }).underpaymentTolerancePercent, given).toBe(stored);
    const extra = await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, {
      underpaymentTolerancePercent: '1',
      other: 1,
    }).catch((e) => e);
    expect(extra).toMatchObject({ code: 'validation_failed' });
    expect(
      await updateUnderpaymentTolerance(t.db, { tenantId: t.tenant.id, mode: 'test' }, ACTOR, { underpaymentTolerancePercent: '2.50' }),
    ).toMatchObject({
      underpaymentTolerancePercent: '2.5',
    });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.underpaymentTolerancePercent).toBe('2.5');
    // The change is audited with the user, before and after (only the good one: bad input changed nothing).
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.tenantId, t.tenant.id));
    expect(audits.map((a: any) => ({ action: a.action, actorId: a.actorId, before: a.before, after: a.after }))).toEqual([
      {
        action: 'tenant.underpayment_tolerance_changed',
        actorId: 'usr_test',
        before: { underpaymentTolerancePercent: '0' },
        after: { underpaymentTolerancePercent: '2.5' },
      },
    ]);
  });
});
