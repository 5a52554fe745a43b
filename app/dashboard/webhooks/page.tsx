import Link from 'next/link';
import { Card, PageHeader } from '@/components/ui/card';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';
import { EndpointsManager } from './endpoints-manager';

export const metadata = { title: 'Webhooks' };

export default async function WebhooksPage() {
  const ctx = await requireContext();
  const [{ data }, tenant] = await Promise.all([listWebhookEndpoints(ctx.db, ctx.owner), getTenantOrThrow(ctx.db, ctx.tenant.id)]);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Signed HTTPS notifications of ${ctx.mode}-mode events to your servers.`}
        actions={
          <Link href="/dashboard/webhooks/deliveries" className="text-sm font-medium text-indigo-600 hover:underline">
            Delivery log →
          </Link>
        }
      />
      <Card>
        <EndpointsManager endpoints={data} canManage={can(ctx.user.role, 'webhooks:manage')} accountVersion={tenant.apiVersion} />
      </Card>
    </>
  );
}
