import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { emails } from '@/db/schema/emails';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/** Statuses a merchant should act on: given up, or never sent because test mode keeps real addresses out. */
const NEEDS_ATTENTION = ['failed', 'suppressed'] as const;

/**
 * The e-mail outbox of one tenant and mode for the dashboard (issue 48 §3: "a failed send is visible in the
 * dashboard"): the newest messages, and how many ended failed or suppressed. `data` (the claim-bearing pay link) is
 * never read out here.
 */
export async function listEmails(db: Db, owner: { tenantId: string; mode: Mode }, q: { limit: number }) {
  const mine = and(eq(emails.tenantId, owner.tenantId), eq(emails.mode, owner.mode));
  const [rows, [attention]] = await Promise.all([
    db
      .select({
        id: emails.id,
        kind: emails.kind,
        subjectId: emails.subjectId,
        to: emails.to,
        status: emails.status,
        attempts: emails.attempts,
        lastError: emails.lastError,
        nextAttemptAt: emails.nextAttemptAt,
        sentAt: emails.sentAt,
        createdAt: emails.createdAt,
      })
      .from(emails)
      .where(mine)
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(q.limit),
    db
      .select({ n: count() })
      .from(emails)
      .where(and(mine, inArray(emails.status, [...NEEDS_ATTENTION]))),
  ]);
  return { data: rows, needsAttention: Number(attention!.n) };
}
