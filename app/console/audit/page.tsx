import Link from 'next/link';
import { AuditTable } from '@/components/audit/audit-table';
import { Card, PageHeader } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { listAudit } from '@/lib/audit/list-audit';
import { requireSupport } from '@/lib/console/context';

export const metadata = { title: 'Audit log · Support console' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const p = await searchParams;
  const f = {
    tenantId: p.tenantId?.trim() || undefined,
    action: p.action?.trim() || undefined,
    targetId: p.targetId?.trim() || undefined,
    before: p.before?.trim() || undefined,
  };
  const { rows, nextBefore } = await listAudit(ctx.db, { ...f, limit: 50 });
  const next = nextBefore
    ? `/console/audit?${new URLSearchParams({ ...Object.fromEntries(Object.entries(f).filter(([, v]) => v)), before: nextBefore })}`
    : null;
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Append-only: every console action and merchants' sensitive actions. A database trigger refuses any change or deletion of a row."
      />
      <form className="mb-4 grid max-w-3xl gap-3 sm:grid-cols-4" aria-label="Filters">
        {(['tenantId', 'action', 'targetId'] as const).map((k) => (
          <div key={k}>
            <label htmlFor={`a-${k}`} className="block text-xs font-medium text-slate-600">
              {{ tenantId: 'Tenant id', action: 'Action', targetId: 'Record id' }[k]}
            </label>
            <input id={`a-${k}`} name={k} defaultValue={f[k] ?? ''} className={inputClass} />
          </div>
        ))}
        <div className="flex items-end">
          <button type="submit" className="h-9 w-full rounded-md border border-slate-300 bg-white px-4 text-sm font-medium">
            Filter
          </button>
        </div>
      </form>
      <Card>
        <AuditTable rows={rows} showTenant />
      </Card>
      {next && (
        <Link href={next} className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
          Older entries →
        </Link>
      )}
    </>
  );
}
