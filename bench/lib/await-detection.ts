import { and, eq } from 'drizzle-orm';
import { events, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The detection benches' wait (bench/detection.ts, bench/tron.ts): polls every 10 ms, at most `tries` times, until
 * the invoice leaves PENDING, then reads its invoice.detected event. Returns when it left PENDING (ms since the
 * epoch) and when the event was written, or undefined for whichever never happened.
 */
export async function awaitDetection(db: Db, invoiceId: string, tries: number): Promise<{ leftAt?: number; detectedAt?: number }> {
  let leftAt: number | undefined;
  for (let i = 0; i < tries && leftAt === undefined; i++) {
    const [row] = await db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoiceId));
    if (row && row.status !== 'PENDING') leftAt = Date.now();
    else await sleep(10);
  }
  const [event] = await db
    .select({ createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.subjectId, invoiceId), eq(events.type, 'invoice.detected')));
  return { leftAt, detectedAt: event?.createdAt.getTime() };
}
