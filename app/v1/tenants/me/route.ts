import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getCurrentTenantOp } from '@/lib/tenants/operations';
import { tenantView } from '@/lib/tenants/get-tenant-or-throw';

// The authentication query already loaded the tenant: no second round trip.
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getCurrentTenantOp, async ({ auth }) => tenantView(auth.tenant, auth.mode)),
});
