import { and, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { getDb, type Db } from '@/lib/db';
import { startDevMail, type DevMail } from '@/lib/dev/dev-mail';
import { resetEnvCache } from '@/lib/env';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { CreatePlanBody, CreateSubscriptionBody } from '@/lib/subscriptions/schemas';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { sendEmails } from './send-emails';

/**
 * Issue 48 §3: a receipt for every invoice with a customer e-mail (not only subscriptions), nothing sent in test mode
 * to a real address unless the operator allows it, and pay links that work wherever PUBLIC_BASE_URL points.
 */
let chain: AnvilChain;
let net: Network;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
});

let maildev: DevMail;
let smtpPort: number;
let webPort: number;
let db: Db;
const smtp = () => nodemailer.createTransport(`smtp://127.0.0.1:${smtpPort}`);
const saved = { ...process.env };

async function inbox(to: string): Promise<any[]> {
  const all = (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as any[];
  return all.filter((m) => m.to?.some((a: { address: string }) => a.address === to));
}
const later = () => new Date(Date.now() + 60_000);

beforeAll(async () => {
  maildev = await startDevMail();
  ({ smtpPort, webPort } = maildev);
  db = await getDb();
});
afterAll(() => maildev?.stop());
afterEach(() => {
  for (const k of ['PUBLIC_BASE_URL', 'EMAIL_TEST_RECIPIENTS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnvCache();
});

describe('receipts for invoices with a customer e-mail', () => {
  it('customerEmail on POST /v1/invoices: kept on the invoice, and a receipt e-mailed once the payment is confirmed', async () => {
    const t = await createTestTenant({ name: 'Beans & Co' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const to = `bob-${t.tenant.id.slice(-8).toLowerCase()}@example.com`;
    const bad = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', customerEmail: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect(bad.body.details.map((d: { path: string }) => d.path)).toContain('customerEmail');

    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00', customerEmail: to, description: 'Coffee beans' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.customerEmail).toBe(to);
    expect((await call('GET', `/v1/invoices/${res.body.id}`, { key: t.test })).body.customerEmail).toBe(to);
    // An invoice without one says nothing about it.
    const plain = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } });
    expect(plain.body).not.toHaveProperty('customerEmail');

    const paid = await call('POST', `/v1/test-helpers/invoices/${res.body.id}/pay`, { key: t.test, body: { amount: '5' } });
    expect(paid.status, paid.text).toBe(200);
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await jobs();
    // Detected is not final: no receipt yet.
    expect(
      await db
        .select()
        .from(emails)
        .where(and(eq(emails.subjectId, res.body.id), eq(emails.kind, 'receipt'))),
    ).toHaveLength(0);
    await chain.mine(5);
    await jobs();
    await jobs();
    const rows = await db.select().from(emails).where(eq(emails.subjectId, res.body.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'receipt', to, status: 'pending', mode: 'test' });

    await sendEmails(db, { transport: smtp(), now: later(), tenantId: t.tenant.id });
    const [mail] = await inbox(to);
    expect(mail.subject).toBe('Receipt from Beans & Co: 5.00 USDT on BSC');
    expect(mail.text).toContain('We received your payment of 5.00 USDT on BSC.');
    expect(mail.text).toContain(`Coffee beans (${res.body.id})`);
  });
});

describe('test mode never mails a real address unless the operator allows it', () => {
  // One tenant for the block: its sends take only its own messages (other files share the database).
  let t: Awaited<ReturnType<typeof createTestTenant>>;
  beforeAll(async () => {
    t = await createTestTenant();
  });
  const send = () => sendEmails(db, { transport: smtp(), now: later(), tenantId: t.tenant.id });
  async function queued(to: string, mode: 'test' | 'live') {
    const [row] = await db
      .insert(emails)
      .values({
        id: `eml_tm${process.pid}${Math.random().toString(36).slice(2, 10)}`,
        tenantId: t.tenant.id,
        mode,
        kind: 'receipt',
        subjectId: `inv_tm${Math.random().toString(36).slice(2, 12)}`,
        to,
        data: { amount: '1.00', token: 'USDT', chain: 'BSC', invoiceId: 'inv_x' },
      })
      .returning();
    return row!;
  }
  const statusOf = async (id: string) => (await db.select().from(emails).where(eq(emails.id, id)))[0]!;

  it('a test-mode message to a real-looking address is suppressed, with the reason; reserved test domains are sent', async () => {
    const real = await queued(`ann.${process.pid}@gmail.com`, 'test');
    const reserved = await queued(`ann.${process.pid}@shop.example`, 'test');
    const live = await queued(`ann.live.${process.pid}@gmail.com`, 'live');
    await send();
    expect(await statusOf(real.id)).toMatchObject({ status: 'suppressed' });
    expect((await statusOf(real.id)).lastError).toMatch(/test mode/);
    expect(await inbox(real.to)).toHaveLength(0);
    expect(await statusOf(reserved.id)).toMatchObject({ status: 'sent' });
    expect(await statusOf(live.id)).toMatchObject({ status: 'sent' });
  });

  it('EMAIL_TEST_RECIPIENTS lets the operator allow addresses or domains (or * for all)', async () => {
    process.env.EMAIL_TEST_RECIPIENTS = `qa.${process.pid}@gmail.com, @acme-staff.com`;
    resetEnvCache();
    const allowed = await queued(`qa.${process.pid}@gmail.com`, 'test');
    const domain = await queued(`pat.${process.pid}@acme-staff.com`, 'test');
    const other = await queued(`zed.${process.pid}@gmail.com`, 'test');
    await send();
    expect((await statusOf(allowed.id)).status).toBe('sent');
    expect((await statusOf(domain.id)).status).toBe('sent');
    expect((await statusOf(other.id)).status).toBe('suppressed');
    process.env.EMAIL_TEST_RECIPIENTS = '*';
    resetEnvCache();
    const any = await queued(`any.${process.pid}@gmail.com`, 'test');
    await send();
    expect((await statusOf(any.id)).status).toBe('sent');
  });
});

describe("a subscription invoice's pay link", () => {
  it('is the checkout URL itself when PUBLIC_BASE_URL is set (the origin once)', async () => {
    process.env.PUBLIC_BASE_URL = 'https://pay.example.test';
    resetEnvCache();
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } };
    const plan = await createPlan(db, owner, CreatePlanBody.parse({ name: 'Pro', amount: '3.00', interval: 'day' }));
    const sub = await createSubscription(db, owner, CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: 'c@example.com' }));
    const [row] = await db.select().from(emails).where(eq(emails.subjectId, sub.latestInvoiceId!));
    expect(row!.data.payUrl).toMatch(new RegExp(`^https://pay\\.example\\.test/pay/${sub.latestInvoiceId}\\?claim=[^/]+$`));
  });
});
