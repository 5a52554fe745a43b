import { eq } from 'drizzle-orm';
import { parseUnits, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { events, invoices } from '@/db/schema';
import { type Network } from '@/lib/chain/network';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

async function setup(fee = '0.015') {
  const t = await createTestTenant({ invoiceFeeRate: fee });
  const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
  await jobs(); // the watcher's cursor starts below the head
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
  return res.body;
}

async function detail(key: string, id: string) {
  const res = await call('GET', `/v1/invoices/${id}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const balance = async (t: { db: any; tenant: { id: string } }) =>
  new Decimal(await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })).toFixed();

const types = async (db: any, id: string) =>
  (await db.select({ type: events.type }).from(events).where(eq(events.subjectId, id)).orderBy(events.createdAt, events.id)).map((e: any) => e.type);

describe('invoice lifecycle on anvil', () => {
  it('exact payment: DETECTED, CONFIRMED after 5 blocks, PAID_OUT with fee and custody on chain and the net credited', async () => {
    const t = await setup('0.015');
    const inv = await create(t.test, { amount: '100.00', externalId: 'ord-1', metadata: { a: 1 } });
    expect(inv).toMatchObject({ status: 'PENDING', amountExpected: '100.00', chain: 'BSC', token: 'USDT', confirmationsRequired: 5 });
    const feeBefore = await chain.tokenBalance(chain.addresses.fee);
    const hotBefore = await chain.tokenBalance(chain.addresses.hot);

    const paid = await pay(t.test, inv.id, '100');
    await t.jobs();
    let d = await detail(t.test, inv.id);
    expect(d.status).toBe('DETECTED');
    expect(d.amountReceived).toBe('100.00');
    expect(d.txHashes).toEqual([paid.txHash]);
    expect(d.payments[0]).toMatchObject({ txHash: paid.txHash, amount: '100.00', confirmations: 0 });

    await chain.mine(4);
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
    await chain.mine(1);
    await t.jobs();
    d = await detail(t.test, inv.id);
    expect(d.status).toBe('PAID_OUT');
    expect(d).toMatchObject({ amountCredited: '98.50', feeAmount: '1.50' });
    expect(await balance(t)).toBe('98.5');
    expect((await chain.tokenBalance(chain.addresses.fee)) - feeBefore).toBe(parseUnits('1.5', 18));
    expect((await chain.tokenBalance(chain.addresses.hot)) - hotBefore).toBe(parseUnits('98.5', 18));
    expect(await chain.tokenBalance(d.depositAddress)).toBe(0n);
    expect(await types(t.db, inv.id)).toEqual([
      'invoice.created',
      'invoice.detected',
      'invoice.confirmed',
      'invoice.processing_payout',
      'invoice.paid_out',
    ]);
    expect(d.events.map((e: any) => e.type)).toContain('invoice.paid_out');
    const [evt] = await t.db.select().from(events).where(eq(events.subjectId, inv.id)).orderBy(events.createdAt).limit(1);
    expect(Object.keys(evt!.data as object).sort()).toEqual(
      [
        'invoiceId',
        'tenantId',
        'chain',
        'token',
        'depositAddress',
        'amountExpected',
        'amountReceived',
        'status',
        'expiresAt',
        'confirmationsRequired',
        'txHashes',
        'metadata',
        // Our addition for the merchant's books (issue 35): the spec lists what the data holds, and these two more.
        'feeAmount',
        'amountCredited',
      ].sort(),
    );
  });

  it('partial then completed: PARTIALLY_PAID, then DETECTED and PAID_OUT', async () => {
    const t = await setup('0.01');
    const inv = await create(t.test, { amount: '50.00' });
    await pay(t.test, inv.id, '20');
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('PARTIALLY_PAID');
    await pay(t.test, inv.id, '30');
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('DETECTED');
    await chain.mine(5);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '50.00', amountCredited: '49.50', feeAmount: '0.50' });
    expect(d.txHashes).toHaveLength(2);
    expect(await types(t.db, inv.id)).toEqual([
      'invoice.created',
      'invoice.detected',
      'invoice.partial',
      'invoice.detected',
      'invoice.confirmed',
      'invoice.processing_payout',
      'invoice.paid_out',
    ]);
  });

  it('overpaid: OVERPAID, the whole amount is settled and credited', async () => {
    const t = await setup('0.01');
    const inv = await create(t.test, { amount: '10.00' });
    await pay(t.test, inv.id, '12.5');
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('OVERPAID');
    await chain.mine(5);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '12.50', amountCredited: '12.37', feeAmount: '0.13' });
    expect(await balance(t)).toBe('12.37');
    expect(await types(t.db, inv.id)).toContain('invoice.overpaid');
  });

  it('expired unpaid: EXPIRED with invoice.expired, nothing credited', async () => {
    const t = await setup();
    const inv = await create(t.test, { amount: '10.00' });
    await t.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invoices.id, inv.id));
    await chain.mine(1);
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d.status).toBe('EXPIRED');
    expect(await types(t.db, inv.id)).toEqual(['invoice.created', 'invoice.expired']);
    expect(await balance(t)).toBe('0');
  });

  it('partial then expired: stays EXPIRED, the partial payment is still swept and credited', async () => {
    const t = await setup('0.02');
    const inv = await create(t.test, { amount: '10.00' });
    await pay(t.test, inv.id, '4');
    await t.jobs();
    await t.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invoices.id, inv.id));
    await chain.mine(5);
    await t.jobs();
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'EXPIRED', amountReceived: '4.00', amountCredited: '3.92', feeAmount: '0.08' });
    expect(d.settlements).toHaveLength(1);
    expect(d.settlements[0]).toMatchObject({ kind: 'extra', status: 'completed' });
    expect(await balance(t)).toBe('3.92');
    expect(await types(t.db, inv.id)).toEqual(['invoice.created', 'invoice.detected', 'invoice.partial', 'invoice.expired', 'invoice.paid_out']);
  });

  it('late payment after expiry: invoice.late_payment, swept and credited, status stays EXPIRED', async () => {
    const t = await setup('0.01');
    const inv = await create(t.test, { amount: '10.00' });
    await t.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invoices.id, inv.id));
    await chain.mine(1);
    await t.jobs();
    expect((await detail(t.test, inv.id)).status).toBe('EXPIRED');
    await pay(t.test, inv.id, '10');
    await t.jobs();
    await chain.mine(5);
    await t.jobs();
    await t.jobs();
    const d = await detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'EXPIRED', amountReceived: '10.00', amountCredited: '9.90' });
    expect(d.payments[0].late).toBe(true);
    expect(await types(t.db, inv.id)).toEqual(['invoice.created', 'invoice.expired', 'invoice.late_payment', 'invoice.paid_out']);
    expect(await balance(t)).toBe('9.9');
  });
});
