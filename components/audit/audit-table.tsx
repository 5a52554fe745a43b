import { EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Time } from '@/components/ui/time';
import type { AuditEntry } from '@/db/schema';
import { ScrollTable } from '@/components/ui/scroll-hint';

const ACTOR = { support: 'Support', user: 'User', api_key: 'API key', system: 'Policy' } as const;

const show = (v: Record<string, unknown> | null) =>
  v
    ? Object.entries(v)
        .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
        .join('\n')
    : '—';

// Ids and labels wrap at fixed widths so before and after keep at least 11 rem each (they were crushed to a few characters).
const WRAP = 'whitespace-normal wrap-anywhere';
const VALUES = 'min-w-44 whitespace-pre-wrap wrap-anywhere';

/** Audit rows as they were written: who, what, which record, before and after, when. Shared by the console and Settings. */
export function AuditTable({ rows, showTenant = false }: { rows: AuditEntry[]; showTenant?: boolean }) {
  if (rows.length === 0) return <EmptyState title="No activity recorded yet" />;
  return (
    <ScrollTable className="-m-5">
      <table className={`${tableClass} [&_td]:px-3 [&_th]:px-3`} data-testid="audit-table">
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
                <div className={`${WRAP} w-24`}>
                  <Time iso={r.createdAt.toISOString()} withSeconds />
                </div>
              </td>
              <td className={`${tdClass} text-xs`}>
                {ACTOR[r.actorKind]}
                <div className={`${WRAP} w-32 text-slate-500`}>{r.actorLabel ?? r.actorId}</div>
              </td>
              <td className={`${tdClass} font-medium`}>
                <div className={`${WRAP} w-36`}>{r.action}</div>
              </td>
              <td className={`${tdClass} font-mono text-xs`}>
                {r.targetType}
                <div className={`${WRAP} w-32`}>{r.targetId}</div>
              </td>
              {showTenant && (
                <td className={`${tdClass} font-mono text-xs`}>
                  <div className={`${WRAP} w-32`}>
                    {r.tenantId ?? '—'}
                    {r.mode ? ` · ${r.mode}` : ''}
                  </div>
                </td>
              )}
              <td className={`${tdClass} text-xs`}>
                <div className={VALUES}>{show(r.before)}</div>
              </td>
              <td className={`${tdClass} text-xs`}>
                <div className={VALUES}>{show(r.after)}</div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}
