import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api/with-api-key';
import { getCurrentTenantOp } from '@/lib/tenants/operations';
import { getTenantView } from '@/lib/tenants/get-tenant-or-throw';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getCurrentTenantOp, ({ db, auth }) => getTenantView(db, auth)),
});
