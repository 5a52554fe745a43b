import { sql } from 'drizzle-orm';
import type { Mode } from '@/lib/mode';
import { rowsOf, type Db } from '@/lib/db';
import { enqueueEmail } from '@/lib/email/enqueue-email';
import { PAID_STATUSES } from '@/lib/payment-links/view';

/** How long before the due date the reminder goes out: a day, or half the window when the window is shorter. */
export const UPCOMING_LEAD_MS = 86_400_000;

/**
 * The reminder before a period's invoice falls due (issue 48 §1: "reminds before it is due and after"): each active
 * subscription whose current invoice is unpaid, whose e-mailed invoice went out (not held for automatic collection,
 * and no pull in flight), and whose due date is within the lead, gets the invoice e-mail's own values (its pay link)
 * as an `upcoming` message. Once per invoice: the outbox's (kind, subject) is unique, whoever runs this.
 */
export async function remindUpcoming(db: Db, now: Date, tenantId?: string): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = rowsOf<{ tenant_id: string; mode: Mode; invoice_id: string; to: string; data: Record<string, string> }>(
    await db.execute(sql`
      select s.tenant_id, s.mode, p.invoice_id, e."to", e.data
        from subscriptions s
        join subscription_periods p on p.subscription_id = s.id and p.period_start = s.current_period_start
        join invoices i on i.id = p.invoice_id
        join emails e on e.kind = 'invoice' and e.subject_id = p.invoice_id and e.status in ('pending', 'sent')
       where s.status = 'active' ${tenantId ? sql`and s.tenant_id = ${tenantId}` : sql``}
         and ${at} < p.due_at
         and ${at} >= p.due_at - least(${`${UPCOMING_LEAD_MS} milliseconds`}::interval, (p.due_at - p.period_start) / 2)
         and i.status not in (${sql.join(
           PAID_STATUSES.map((x) => sql`${x}`),
           sql`, `,
         )})
         and not exists (select 1 from collection_pulls c where c.subscription_id = s.id and c.period_start = p.period_start
                                                          and c.status in ('signed', 'confirmed'))
         and not exists (select 1 from emails u where u.kind = 'upcoming' and u.subject_id = p.invoice_id)
       limit 500`),
  );
  for (const r of rows)
    await enqueueEmail(db, { tenantId: r.tenant_id, mode: r.mode, kind: 'upcoming', subjectId: r.invoice_id, to: r.to, data: r.data });
  return rows.length;
}
