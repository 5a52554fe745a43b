import { eq, inArray, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { emails, type Email } from '@/db/schema/emails';
import { rowsOf, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { renderEmail } from './templates';
import { testModeRecipientAllowed } from './test-mode-recipient';

/** After this many failed attempts a message is `failed` (kept, with its last error, for the operator). */
export const MAX_EMAIL_ATTEMPTS = 8;
/** Backoff after the nth failure: 30 s, 1 min, 2 min ... capped at 1 h. */
export const emailBackoffMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** (attempts - 1));
/** A claimed message is not claimed again for this long (a worker that died mid-send). */
const CLAIM_MS = 120_000;

let cached: { url: string; transport: Transporter } | null = null;
function smtpTransport(): Transporter | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) cached = { url, transport: nodemailer.createTransport(url) };
  return cached.transport;
}

/**
 * Due messages (by the caller's clock, which a test clock moves), claimed on the database's clock so concurrent
 * senders never take the same one, whatever their clocks say; a claim left by a sender that died lapses after CLAIM_MS.
 */
async function claim(db: Db, now: Date, limit: number, tenantId?: string): Promise<Email[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const ofTenant = tenantId ? sql` and tenant_id = ${tenantId}` : sql``;
  const ids = rowsOf<{ id: string }>(
    await db.execute(sql`
      update ${emails} set claimed_until = now() + ${`${CLAIM_MS} milliseconds`}::interval
       where id in (select id from ${emails} where status = 'pending' and next_attempt_at <= ${at}
                       and (claimed_until is null or claimed_until < now())${ofTenant}
                     order by next_attempt_at limit ${limit} for update skip locked)
      returning id`),
  ).map((r) => r.id);
  return ids.length ? db.select().from(emails).where(inArray(emails.id, ids)) : [];
}

/**
 * The e-mail job: sends due messages of the outbox over SMTP (SMTP_URL), each rendered from its template. A failure is
 * retried with backoff, then left `failed` with its error. Runs apart from every payment path: a slow or dead SMTP
 * server delays only e-mail. Without SMTP_URL nothing is sent (messages wait). A test-mode message to an address the
 * operator did not allow is `suppressed`, never sent.
 */
export async function sendEmails(
  db: Db,
  /** `tenantId` sends one tenant's messages only (a sender per tenant; tests sharing a database stay apart). */
  opts: { now?: Date; transport?: Transporter | null; limit?: number; tenantId?: string } = {},
) {
  const transport = opts.transport === undefined ? smtpTransport() : opts.transport;
  if (!transport) return { sent: 0, failed: 0 };
  const now = opts.now ?? new Date();
  let sent = 0;
  let failed = 0;
  for (const m of await claim(db, now, opts.limit ?? 50, opts.tenantId)) {
    if (m.mode === 'test' && !testModeRecipientAllowed(m.to, env().EMAIL_TEST_RECIPIENTS)) {
      const lastError = 'test mode: not sent to an address outside the reserved test domains and EMAIL_TEST_RECIPIENTS';
      await db.update(emails).set({ status: 'suppressed', lastError, claimedUntil: null }).where(eq(emails.id, m.id));
      continue;
    }
    const { subject, text, html } = renderEmail(m.kind, m.data);
    try {
      await transport.sendMail({ from: env().EMAIL_FROM, to: m.to, subject, text, html, headers: { 'X-Gateway-Email-Id': m.id } });
      await db
        .update(emails)
        .set({ status: 'sent', sentAt: new Date(), attempts: m.attempts + 1, lastError: null, claimedUntil: null })
        .where(eq(emails.id, m.id));
      sent++;
    } catch (err) {
      const attempts = m.attempts + 1;
      const lastError = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const gaveUp = attempts >= MAX_EMAIL_ATTEMPTS;
      await db
        .update(emails)
        .set({
          attempts,
          lastError,
          status: gaveUp ? 'failed' : 'pending',
          nextAttemptAt: new Date(now.getTime() + emailBackoffMs(attempts)),
          claimedUntil: null,
        })
        .where(eq(emails.id, m.id));
      failed++;
      log.warn('e-mail send failed', { emailId: m.id, attempts, gaveUp, error: lastError });
    }
  }
  return { sent, failed };
}
