import { sql } from 'drizzle-orm';
import { pageMeta } from '@/lib/api/schemas';
import { rowsOf, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { ENTRY_COLUMNS, ENTRY_FROM, entryFilters, type EntryRow } from './entry-sql';
import type { ListBalanceTransactionsQuery } from './schemas';
import { balanceTransactionView } from './view';

/** GET /v1/balance-transactions: a tenant's ledger entries in the key's mode, newest first, filtered and paged. */
export async function listBalanceTransactions(db: Db, owner: { tenantId: string; mode: Mode }, q: ListBalanceTransactionsQuery) {
  const where = entryFilters(owner, q);
  const [rows, [total]] = await Promise.all([
    db.execute(sql`select ${ENTRY_COLUMNS} ${ENTRY_FROM} where ${where}
                   order by e.created_at desc, e.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
    db.execute(sql`select count(*) as n ${ENTRY_FROM} where ${where}`).then((r) => rowsOf<{ n: string }>(r)),
  ]);
  return { data: rowsOf<EntryRow>(rows).map((r) => balanceTransactionView(owner.mode, r)), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
