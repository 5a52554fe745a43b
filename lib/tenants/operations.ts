import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { TenantSchema, UpdateTenantBody } from './schemas';

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

export const updateCurrentTenantOp = defineOperation({
  id: 'updateCurrentTenant',
  method: 'PATCH',
  path: '/v1/tenants/me',
  scope: 'admin',
  tag: 'Tenant',
  summary: 'Change the underpayment tolerance and the wrong-network policy',
  description:
    "Extension. Either or both; each change is audited (Settings > Activity). These settings are the account's, for both modes, so only a live key may change them (a test key is 403 mode_mismatch: test keys go to CI and contractors). The auto-refund policy is changed in the dashboard only (the owner, with step-up). See docs/invoices.md.",
  body: UpdateTenantBody,
  example: { underpaymentTolerancePercent: '0.5', wrongNetworkPolicy: 'hold' },
  response: TenantSchema,
  errors: ['mode_mismatch'],
});
