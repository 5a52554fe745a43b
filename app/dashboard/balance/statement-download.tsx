import { Card } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';

/** A plain GET form: the browser downloads the CSV (works without JavaScript). Whole days, UTC. */
export function StatementDownload({ assets }: { assets: string[] }) {
  const today = new Date().toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 8)}01`;
  return (
    <Card title="Statement" className="mt-4">
      <form method="get" action="/dashboard/balance/statement" className="grid max-w-3xl gap-3 sm:grid-cols-4" aria-label="Statement">
        <div>
          <label htmlFor="st-asset" className="block text-xs font-medium text-slate-600">
            Asset
          </label>
          <select id="st-asset" name="asset" defaultValue="USDT" className={inputClass}>
            {assets.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="st-from" className="block text-xs font-medium text-slate-600">
            From (UTC)
          </label>
          <input id="st-from" name="from" type="date" required defaultValue={monthStart} className={inputClass} />
        </div>
        <div>
          <label htmlFor="st-to" className="block text-xs font-medium text-slate-600">
            To, inclusive (UTC)
          </label>
          <input id="st-to" name="to" type="date" required defaultValue={today} className={inputClass} />
        </div>
        <div className="flex items-end">
          <button
            type="submit"
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Download CSV
          </button>
        </div>
      </form>
      <p className="mt-3 text-xs text-slate-500">
        Opening balance, every balance transaction of the period with the running balance, closing balance. Also by API: GET
        /v1/balance-transactions/statement.
      </p>
    </Card>
  );
}
