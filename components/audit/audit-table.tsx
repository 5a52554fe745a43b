import { EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Time } from '@/components/ui/time';
import type { AuditEntry } from '@/db/schema';

const ACTOR = { support: 'Support', user: 'User', api_key: 'API key', system: 'Policy' } as const;

const show = (v: Record<string, unknown> | null) =>
  v
    ? Object.entries(v)
        .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
        .join('\n')
    : '—';

/** Audit rows as they were written: who, what, which record, before and after, when. Shared by the console and Settings. */
export function AuditTable({ rows, showTenant = false }: { rows: AuditEntry[]; showTenant?: boolean }) {
  if (rows.length === 0) return <EmptyState title="No activity recorded yet" />;
  return (
    <div className="-m-5 overflow-x-auto">
      <table className={tableClass} data-testid="audit-table">
        <thead>
          <tr>
            <th className={thClass}>When</th>
            <th className={thClass}>Who</th>
            <th className={thClass}>Action</th>
            <th className={thClass}>Record</th>
            {showTenant && <th className={thClass}>Tenant</th>}
            <th className={thClass}>Before</th>
            <th className={thClass}>After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-audit-action={r.action} data-audit-target={r.targetId} className="align-top">
              <td className={`${tdClass} text-xs`}>
                <Time iso={r.createdAt.toISOString()} withSeconds />
              </td>
              <td className={`${tdClass} text-xs`}>
                {ACTOR[r.actorKind]}
                <div className="text-slate-500">{r.actorLabel ?? r.actorId}</div>
              </td>
              <td className={`${tdClass} font-medium`}>{r.action}</td>
              <td className={`${tdClass} font-mono text-xs`}>
                {r.targetType}
                <div>{r.targetId}</div>
              </td>
              {showTenant && (
                <td className={`${tdClass} font-mono text-xs`}>
                  {r.tenantId ?? '—'}
                  {r.mode ? ` · ${r.mode}` : ''}
                </td>
              )}
              <td className={`${tdClass} whitespace-pre-wrap break-all text-xs`}>{show(r.before)}</td>
              <td className={`${tdClass} whitespace-pre-wrap break-all text-xs`}>{show(r.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
