import { Providers } from '@/components/dashboard/providers';
import { Shell } from '@/components/dashboard/shell';
import { requireContext } from '@/lib/dashboard/context';

export const metadata = { title: 'Dashboard' };

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const ctx = await requireContext();
  return (
    <Providers>
      <Shell tenantName={ctx.tenant.name} email={ctx.user.email} role={ctx.user.role} mode={ctx.mode}>
        {children}
      </Shell>
    </Providers>
  );
}
