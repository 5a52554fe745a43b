import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, EmptyState, tdClass } from '@/components/ui/card';
import { CardTable } from '@/components/ui/card-table';
import { Time } from '@/components/ui/time';
import type { listEmails } from '@/lib/email/list-emails';

type Row = Awaited<ReturnType<typeof listEmails>>['data'][number];

const KIND: Record<Row['kind'], string> = {
  invoice: 'Invoice',
  upcoming: 'Due-soon reminder',
  reminder: 'Past-due reminder',
  receipt: 'Receipt',
  canceled: 'Subscription canceled',
  portal: 'Portal link',
};
const STATUS: Record<Row['status'], { label: string; tone: 'green' | 'blue' | 'red' | 'amber' | 'gray' }> = {
  sent: { label: 'Sent', tone: 'green' },
  pending: { label: 'Waiting to send', tone: 'blue' },
  held: { label: 'Held (automatic collection)', tone: 'gray' },
  dropped: { label: 'Not needed (collected)', tone: 'gray' },
  failed: { label: 'Failed', tone: 'red' },
  suppressed: { label: 'Not sent (test mode)', tone: 'amber' },
};

/** The e-mails sent to customers, failures first in the reader's eye: red, with the server's last answer. */
export function EmailsTable({ rows, needsAttention }: { rows: Row[]; needsAttention: number }) {
  return (
    <Card
      title="E-mails to customers"
      actions={
        needsAttention > 0 ? (
          <span className="text-sm text-red-700" data-testid="emails-attention">
            {needsAttention} not delivered
          </span>
        ) : undefined
      }
    >
      {rows.length === 0 ? (
        <EmptyState title="No e-mails yet">Invoices, reminders and receipts sent to your customers appear here.</EmptyState>
      ) : (
        <CardTable columns={['To', 'What', 'Status', 'Written', 'Last error']}>
          {rows.map((m) => (
            <tr key={m.id} data-email-id={m.id} data-email-status={m.status}>
              <td className={tdClass}>{m.to}</td>
              <td className={tdClass}>
                {KIND[m.kind]}
                {m.subjectId.startsWith('inv_') && (
                  <div className="font-mono text-xs">
                    <Link href={`/dashboard/invoices/${m.subjectId}`} className="text-indigo-600 hover:underline">
                      {m.subjectId}
                    </Link>
                  </div>
                )}
              </td>
              <td className={tdClass}>
                <Badge tone={STATUS[m.status].tone}>{STATUS[m.status].label}</Badge>
                {m.attempts > 0 && m.status !== 'sent' && (
                  <div className="text-xs text-slate-500">
                    {m.attempts} {m.attempts === 1 ? 'attempt' : 'attempts'}
                    {m.status === 'pending' && (
                      <>
                        , next <Time iso={m.nextAttemptAt.toISOString()} />
                      </>
                    )}
                  </div>
                )}
              </td>
              <td className={tdClass}>
                <Time iso={(m.sentAt ?? m.createdAt).toISOString()} />
              </td>
              <td className={`${tdClass} max-w-xs whitespace-normal text-xs text-slate-600`}>{m.lastError ?? '—'}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </Card>
  );
}
