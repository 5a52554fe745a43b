import Link from 'next/link';
import { AuditTable } from '@/components/audit/audit-table';
import { Card, PageHeader } from '@/components/ui/card';
import { listAudit } from '@/lib/audit/list-audit';
import { requireContext } from '@/lib/dashboard/context';

export const metadata = { title: 'Activity · Settings' };

/** The tenant's own audit rows (both modes): keys, endpoint secrets, withdrawals, and what support changed on the account. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireContext();
  const before = (await searchParams).before?.trim() || undefined;
  const { rows, nextBefore } = await listAudit(ctx.db, { tenantId: ctx.tenant.id, before, limit: 50 });
  return (
    <>
      <PageHeader
        title="Activity"
        description="Sensitive actions on this account, by your team, your API keys and gateway support. Kept permanently; nobody can edit or delete an entry."
        actions={
          <Link href="/dashboard/settings" className="text-sm font-medium text-indigo-600 hover:underline">
            ← Settings
          </Link>
        }
      />
      <Card>
        <AuditTable rows={rows} />
      </Card>
      {nextBefore && (
        <Link
          href={`/dashboard/settings/activity?before=${nextBefore}`}
          className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline"
        >
          Older entries →
        </Link>
      )}
    </>
  );
}
