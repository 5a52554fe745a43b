import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { TenantSchema } from './schemas';

export const getCurrentTenantOp = defineOperation({
  id: 'getCurrentTenant',
  method: 'GET',
  path: '/v1/tenants/me',
  scope: null,
  tag: 'Tenant',
  summary: 'The tenant of the calling key',
  description: 'Works with any valid key, whatever its scopes.',
  query: z.strictObject({}),
  response: TenantSchema,
});
