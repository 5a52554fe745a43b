import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { loadCursor } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import { emitInvoiceEvent } from './emit-invoice-event';
import { updateInvoice } from './transitions';
import { invoices } from '@/db/schema';
import type { RawRow } from '@/lib/db/raw-row';

/**
 * PENDING and PARTIALLY_PAID invoices past expiresAt become EXPIRED with
 * invoice.expired. The deadline is compared with the time of the last block
 * the watcher has scanned (and never later than now): a payment mined before
 * expiry but not yet scanned is never mistaken for a late one.
 */
export async function expireInvoices(db: Db, net: Pick<Network, 'mode' | 'chainId'>, opts: { batch?: number } = {}): Promise<number> {
  const cursor = await loadCursor(db, net);
  if (!cursor) return 0;
  const deadline = new Date(Math.min(Date.now(), cursor.lastBlockTime.getTime()));
  const batch = opts.batch ?? 200;
  let total = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const ids = rowsOf<RawRow<typeof invoices, { id: string }>>(
        await tx.execute(sql`
          select id from invoices
           where chain_id = ${net.chainId} and mode = ${net.mode} and status in ('PENDING', 'PARTIALLY_PAID')
             and expires_at <= ${deadline.toISOString()}::timestamptz
           order by expires_at limit ${batch} for update skip locked`),
      );
      for (const { id } of ids) {
        const row = await updateInvoice(tx, id, { status: 'EXPIRED' });
        await emitInvoiceEvent(tx, row, 'invoice.expired');
      }
      return ids.length;
    });
    total += n;
    if (n < batch) return total;
  }
}
