import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/ui/card';
import { ApiError } from '@/lib/api/errors';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { getPayout } from '@/lib/payouts/get-payout';
import { PayoutProgress } from './payout-progress';

export const metadata = { title: 'Payout' };

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireContext();
  const { id } = await params;
  const payout = await getPayout(ctx.db, ctx.owner, id).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  });
  return (
    <>
      <PageHeader title={`Payout ${payout.id}`} description={`${payout.itemCount} recipients, each sent as a withdrawal on its network.`} />
      <PayoutProgress initial={payout} canDecide={can(ctx.user.role, 'settings:manage')} totpEnabled={ctx.user.totpEnabled} />
    </>
  );
}
