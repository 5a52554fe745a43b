import type { Db } from '@/lib/db';
import type { IdKind } from '@/lib/ids';
import type { Mode } from '@/lib/tenants/mode';
import { createTestKey } from './fixtures';

/**
 * Makes a real record of each kind a /v1 path can name, for the generated
 * "another tenant's id / other mode's id is a 404" tests. A path parameter
 * kind without a factory here fails the auth matrix test.
 */
export const RESOURCE_FACTORIES: Partial<Record<IdKind, (db: Db, owner: { tenantId: string; mode: Mode }) => Promise<string>>> = {
  apiKey: async (db, owner) => (await createTestKey(db, { ...owner, scopes: ['invoices:read'] })).id,
};
