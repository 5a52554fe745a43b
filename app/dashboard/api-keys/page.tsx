import { Card, PageHeader } from '@/components/ui/card';
import { listApiKeys } from '@/lib/api-keys/list-api-keys';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { KeysManager } from './keys-manager';

export const metadata = { title: 'API keys' };

export default async function ApiKeysPage() {
  const ctx = await requireContext();
  const { data } = await listApiKeys(ctx.db, ctx.owner);
  const canManage = can(ctx.user.role, 'keys:manage');
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Secret keys for ${ctx.mode} mode authenticate your server's requests to /v1. Keep them out of browsers and source control.`}
      />
      <Card>
        <KeysManager keys={data} canManage={canManage} mode={ctx.mode} totpEnabled={ctx.user.totpEnabled} />
      </Card>
    </>
  );
}
