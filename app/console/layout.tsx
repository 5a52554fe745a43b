import { ConsoleShell } from '@/components/console/console-shell';
import { Providers } from '@/components/dashboard/providers';
import { requireSupport } from '@/lib/console/context';

export const metadata = { title: 'Support console' };
// Cross-tenant data, read per request; never prerendered.
export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requireSupport();
  return (
    <Providers>
      <ConsoleShell email={ctx.user.email}>{children}</ConsoleShell>
    </Providers>
  );
}
