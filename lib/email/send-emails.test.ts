import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, subscriptionPeriods } from '@/db/schema';
import { getDb, type Db } from '@/lib/db';
import { startDevMail, type DevMail } from '@/lib/dev/dev-mail';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from '@/lib/subscriptions/schemas';
import { createTestTenant } from '@/lib/testing/fixtures';
import { emailBackoffMs, sendEmails } from './send-emails';

/**
 * Issue 48 §3: the e-mail outbox sent over real SMTP to a local catcher (maildev, started here; its inbox read through
 * its REST API), retried with backoff when the server is down, and never in the way of billing.
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

let maildev: DevMail;
let smtpPort: number;
let webPort: number;
let db: Db;
let t: Awaited<ReturnType<typeof createTestTenant>>;
const smtp = (port: number) => nodemailer.createTransport(`smtp://127.0.0.1:${port}`);

async function inbox(to: string): Promise<any[]> {
  const all = (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as any[];
  return all.filter((m) => m.to?.some((a: { address: string }) => a.address === to));
}

beforeAll(async () => {
  maildev = await startDevMail();
  ({ smtpPort, webPort } = maildev);
  db = await getDb();
  t = await createTestTenant({ name: 'Acme <Tools>' });
});
afterAll(() => maildev?.stop());

describe('e-mail', () => {
  it("a period's invoice is e-mailed to the customer, plain text and HTML, with its pay link", async () => {
    const owner = { tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } };
    const plan = await createPlan(db, owner, CreatePlanBody.parse({ name: 'Pro', amount: '12.00', interval: 'day', graceDays: 1 }));
    const to = `ann-${t.tenant.id.slice(-8).toLowerCase()}@example.com`;
    const t0 = new Date();
    const sub = await createSubscription(db, owner, CreateSubscriptionBody.parse({ planId: plan.id, customerEmail: to }), { now: t0 });
    const [queued] = await db.select().from(emails).where(eq(emails.subjectId, sub.latestInvoiceId!));
    expect(queued).toMatchObject({ kind: 'invoice', to, status: 'pending', attempts: 0 });
    const t1 = new Date(Math.max(Date.now(), queued!.nextAttemptAt.getTime()));

    // The server is down: retried later, with backoff; the message waits.
    const down = await sendEmails(db, { transport: smtp(await freePort()), now: t1, tenantId: t.tenant.id });
    expect(down.failed).toBeGreaterThanOrEqual(1);
    let [row] = await db.select().from(emails).where(eq(emails.id, queued!.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.nextAttemptAt).toEqual(new Date(t1.getTime() + emailBackoffMs(1)));
    expect(row!.lastError).toBeTruthy();
    // Not due yet: not sent even with the server up.
    await sendEmails(db, { transport: smtp(smtpPort), now: new Date(t1.getTime() + emailBackoffMs(1) - 1), tenantId: t.tenant.id });
    expect(await inbox(to)).toHaveLength(0);

    await sendEmails(db, { transport: smtp(smtpPort), now: new Date(t1.getTime() + emailBackoffMs(1)), tenantId: t.tenant.id });
    [row] = await db.select().from(emails).where(eq(emails.id, queued!.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    const [mail] = await inbox(to);
    expect(mail.subject).toBe('Invoice from Acme <Tools>: 12.00 USDT on BSC');
    expect(mail.text).toContain(`Pay the invoice: http`);
    expect(mail.text).toContain(`/pay/${sub.latestInvoiceId}`);
    expect(mail.html).toContain('Acme &#60;Tools&#62;');
    expect(mail.html).not.toContain('<Tools>');

    // Unpaid past its due date: past_due, and a reminder with the same pay link.
    const [period] = await db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, sub.id));
    await runBilling(db, { now: period!.dueAt, tenantId: t.tenant.id });
    await sendEmails(db, { transport: smtp(smtpPort), now: period!.dueAt, tenantId: t.tenant.id });
    const reminder = (await inbox(to)).find((m) => m.subject.startsWith('Reminder'));
    expect(reminder?.text).toContain(`/pay/${sub.latestInvoiceId}`);
  });

  it('gives up after the last attempt and keeps the error', async () => {
    const [row] = await db
      .insert(emails)
      .values({
        id: `eml_giveup${process.pid}`,
        tenantId: t.tenant.id,
        mode: 'test',
        kind: 'receipt',
        subjectId: `inv_x${process.pid}`,
        to: 'x@example.com',
        data: { amount: '1.00', token: 'USDT', chain: 'BSC' },
        attempts: 7,
      })
      .returning();
    await sendEmails(db, { transport: smtp(await freePort()), now: new Date(Date.now() + 86_400_000), tenantId: t.tenant.id });
    const [after] = await db.select().from(emails).where(eq(emails.id, row!.id));
    expect(after).toMatchObject({ status: 'failed', attempts: 8 });
  });

  it('a message one sender is sending is not sent again by a sender whose clock runs ahead (a test clock, a skewed host)', async () => {
    // Seen in the subscription walk: the worker claimed a receipt at the wall clock, the spec's sender at a test clock
    // months ahead found its claim lapsed and sent it too. The claim is judged on the database's clock now.
    const id = `eml_claim${process.pid}`;
    await db.insert(emails).values({
      id,
      tenantId: t.tenant.id,
      mode: 'test',
      kind: 'receipt',
      subjectId: `inv_claim${process.pid}`,
      to: 'claim@example.com',
      data: { amount: '1.00', token: 'USDT', chain: 'BSC' },
    });
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    const sentBy: string[] = [];
    const slow = { sendMail: async () => (sentBy.push('wall clock'), await held) } as unknown as Transporter;
    const fast = { sendMail: async () => void sentBy.push('test clock') } as unknown as Transporter;
    const first = sendEmails(db, { transport: slow, tenantId: t.tenant.id });
    await expect.poll(() => sentBy.length).toBe(1);
    const ahead = await sendEmails(db, { transport: fast, now: new Date(Date.now() + 90 * 86_400_000), tenantId: t.tenant.id });
    expect(ahead.sent).toBe(0);
    release();
    expect(await first).toMatchObject({ sent: 1 });
    expect(sentBy).toEqual(['wall clock']);
    const [after] = await db.select().from(emails).where(eq(emails.id, id));
    expect(after).toMatchObject({ status: 'sent', attempts: 1, claimedUntil: null });
  });
});
