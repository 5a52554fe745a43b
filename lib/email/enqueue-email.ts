import { emails, type EmailKind } from '@/db/schema/emails';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';

/**
 * Puts a message in the e-mail outbox, in the caller's transaction (the one that made what it reports). Once per kind
 * and subject: a second write of the same message is a no-op. The e-mail job sends it (lib/email/send-emails.ts).
 */
export async function enqueueEmail(
  tx: Db,
  e: { tenantId: string; mode: Mode; kind: EmailKind; subjectId: string; to: string; data: Record<string, string>; status?: 'pending' | 'held' },
): Promise<void> {
  await tx
    .insert(emails)
    .values({ id: newId('email'), ...e })
    .onConflictDoNothing({ target: [emails.kind, emails.subjectId] });
}
