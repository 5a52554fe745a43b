import { ASSETS, DEFAULT_RAIL } from '@/lib/config/rails';
import { getDashboardContext } from '@/lib/dashboard/context';
import { StatementQuery } from '@/lib/statements/schemas';
import { statementCsv } from '@/lib/statements/statement-csv';

const DAY_MS = 86_400_000;
const day = (v: string | null) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : null);

/** The balance page's statement download: whole UTC days, `to` inclusive; the same CSV as GET /v1/balance-transactions/statement. */
export async function GET(req: Request) {
  const ctx = await getDashboardContext();
  if (!ctx) return new Response('Sign in first.', { status: 401 });
  const p = new URL(req.url).searchParams;
  const [from, to] = [day(p.get('from')), day(p.get('to'))];
  const asset = (ASSETS as readonly string[]).includes(p.get('asset') ?? '') ? p.get('asset')! : DEFAULT_RAIL.token;
  const q =
    from && to ? StatementQuery.safeParse({ asset, from: `${from}T00:00:00.000Z`, to: new Date(Date.parse(to) + DAY_MS).toISOString() }) : null;
  if (!q?.success) return new Response('Choose a period: from and to as dates, from not after to.', { status: 400 });
  const { stream, filename } = statementCsv(ctx.db, ctx.owner, q.data);
  return new Response(stream, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' },
  });
}
