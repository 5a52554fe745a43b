import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { ENTRY_COLUMNS, ENTRY_FROM, entryFilters, type EntryRow } from './entry-sql';
import type { StatementQuery } from './schemas';
import { balanceTransactionView } from './view';

export const STATEMENT_COLUMNS = [
  'date',
  'id',
  'type',
  'description',
  'network',
  'source_type',
  'source_id',
  'invoice_id',
  'tx_hash',
  'amount',
  'fee',
  'net',
  'balance',
  'fiat_currency',
  'fiat_amount',
] as const;

const BATCH = 2_000;

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =, +, - or @ of text is defused for spreadsheets. */
function field(v: string | null | undefined, numeric = false): string {
  if (v === null || v === undefined) return '';
  const s = !numeric && /^[=+\-@]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const line = (cells: string[]) => `${cells.join(',')}\r\n`;

/**
 * A statement of one balance (tenant, mode, asset) for [from, to): an opening balance row (the sum of every
 * entry before `from`), every entry in order with the running balance, and a closing balance row. The
 * running balance is opening + the entries so far, so opening + entries = closing exactly, whatever order
 * concurrent posts committed in. Streamed in keyset batches: memory stays flat whatever the period holds.
 * Returns the stream and a file name.
 */
export function statementCsv(db: Db, owner: { tenantId: string; mode: Mode }, q: StatementQuery) {
  const from = new Date(q.from).toISOString();
  const to = new Date(q.to).toISOString();
  const where = entryFilters(owner, { asset: q.asset, createdFrom: from, createdTo: to });
  const encoder = new TextEncoder();
  let balance: Decimal | null = null;
  let after: { at: string; id: string } | null = null;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (done) return controller.close();
        if (balance === null) {
          const [o] = rowsOf<{ opening: string }>(
            await db.execute(sql`
              select coalesce(sum(amount), 0)::text as opening from ledger_entries
               where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and currency = ${q.asset}
                 and created_at < ${from}::timestamptz`),
          );
          balance = new Decimal(o!.opening);
          const row = new Array<string>(STATEMENT_COLUMNS.length).fill('');
          row[0] = from;
          row[2] = 'opening_balance';
          row[3] = `Opening balance ${q.asset} (${owner.mode})`;
          row[12] = formatAmount(balance);
          controller.enqueue(encoder.encode(line([...STATEMENT_COLUMNS]) + line(row)));
          return;
        }
        const keyset = after ? sql` and (e.created_at, e.id) > (${after.at}::timestamptz, ${after.id})` : sql``;
        const rows = rowsOf<EntryRow>(
          await db.execute(sql`select ${ENTRY_COLUMNS} ${ENTRY_FROM} where ${where}${keyset} order by e.created_at, e.id limit ${BATCH}`),
        );
        let out = '';
        for (const r of rows) {
          const v = balanceTransactionView(owner.mode, r);
          balance = balance.plus(r.amount);
          out += line([
            v.createdAt,
            v.id,
            v.type,
            field(v.description),
            v.network ?? '',
            field(v.sourceType),
            field(v.sourceId),
            v.invoiceId ?? '',
            v.txHash ?? '',
            v.amount,
            v.fee,
            v.net,
            formatAmount(balance),
            field(v.fiat?.currency),
            v.fiat?.amount ?? '',
          ]);
        }
        const last = rows[rows.length - 1];
        // The timestamp as PostgreSQL holds it (microseconds), so the keyset never skips or repeats an entry.
        if (last) after = { at: typeof last.created_at === 'string' ? last.created_at : last.created_at.toISOString(), id: last.id };
        if (rows.length < BATCH) {
          const row = new Array<string>(STATEMENT_COLUMNS.length).fill('');
          row[0] = to;
          row[2] = 'closing_balance';
          row[3] = `Closing balance ${q.asset} (${owner.mode})`;
          row[12] = formatAmount(balance);
          out += line(row);
          done = true;
        }
        controller.enqueue(encoder.encode(out));
      } catch (err) {
        controller.error(err);
      }
    },
  });
  const day = (iso: string) => iso.slice(0, 10);
  return { stream, filename: `statement-${owner.mode}-${q.asset}-${day(from)}-${day(to)}.csv` };
}
