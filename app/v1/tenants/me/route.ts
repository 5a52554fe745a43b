import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { getCurrentTenantOp, updateCurrentTenantOp } from '@/lib/tenants/operations';
import { tenantView } from '@/lib/tenants/get-tenant-or-throw';
import { updateTenantSettings } from '@/lib/tenants/update-tenant-settings';

// The authentication query already loaded the tenant: no second round trip.
export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getCurrentTenantOp, async ({ auth }) => tenantView(auth.tenant, auth.mode)),
  PATCH: withApiKey(updateCurrentTenantOp, ({ db, auth, body }) => updateTenantSettings(db, auth, apiKeyActor(auth), body)),
});
