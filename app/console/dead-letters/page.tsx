import { DEAD_LETTERS_DESCRIPTION } from '@/components/console/dead-letter-text';
import { Card, PageHeader } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { DeadLetterTable } from '@/components/console/dead-letter-table';
import { RecoverForm } from '@/components/console/recover-form';
import { requireSupport } from '@/lib/console/context';
import { DeadLetterFilter, listDeadLetters } from '@/lib/console/list-dead-letters';

export const metadata = { title: 'Dead letters · Support console' };

export default async function DeadLettersPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const params = await searchParams;
  const f = DeadLetterFilter.parse(params);
  const rows = await listDeadLetters(ctx.db, f);
  const field = (name: keyof typeof params, label: string, placeholder: string) => (
    <div>
      <label htmlFor={`f-${name}`} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <input id={`f-${name}`} name={name} defaultValue={params[name] ?? ''} placeholder={placeholder} className={inputClass} />
    </div>
  );
  return (
    <>
      <PageHeader title="Dead letters" description={DEAD_LETTERS_DESCRIPTION} />
      <form className="mb-4 grid gap-3 sm:grid-cols-3 lg:grid-cols-7" aria-label="Filters">
        {field('tenantId', 'Tenant id', 'ten_…')}
        {field('endpointId', 'Endpoint id', 'whe_…')}
        {field('eventType', 'Event type', 'invoice.paid')}
        {field('minAgeHours', 'Older than (h)', '0')}
        {field('maxAgeHours', 'Newer than (h)', '72')}
        <div>
          <label htmlFor="f-state" className="block text-xs font-medium text-slate-600">
            State
          </label>
          <select id="f-state" name="state" defaultValue={f.state} className={inputClass}>
            <option value="open">Not replayed</option>
            <option value="replayed">Replayed</option>
            <option value="all">All</option>
          </select>
        </div>
        <div className="flex items-end">
          <button
            type="submit"
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Filter
          </button>
        </div>
      </form>
      <DeadLetterTable rows={rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), deadAt: r.deadAt.toISOString() }))} />
      <div className="mt-6 max-w-3xl">
        <Card title="Recover an endpoint since a time">
          <RecoverForm defaultEndpointId={f.endpointId ?? ''} />
        </Card>
      </div>
    </>
  );
}
