import type { Operation } from './operation';
import * as apiKeys from '@/lib/api-keys/operations';
import * as tenants from '@/lib/tenants/operations';

/** Every /v1 operation: the OpenAPI document and the generated auth tests iterate this list. */
export const OPERATIONS: Operation[] = [...Object.values(tenants), ...Object.values(apiKeys)] as Operation[];
