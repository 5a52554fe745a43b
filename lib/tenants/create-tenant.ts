import { randomBytes } from 'node:crypto';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { LATEST_API_VERSION } from '@/lib/api/versions';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import { createApiKey } from '@/lib/api-keys/create-api-key';

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `${base || 'store'}-${randomBytes(3).toString('hex')}`;
}

export interface CreateTenantInput {
  name: string;
  invoiceFeeRate?: string;
  withdrawalFeeRate?: string;
}

function checkRate(label: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let d: Decimal;
  try {
    d = new Decimal(value);
  } catch {
    throw new Error(`${label} must be a decimal fraction such as 0.01`);
  }
  if (!d.isFinite() || d.lt(0) || d.gte(1)) throw new Error(`${label} must be at least 0 and below 1 (0.01 = 1 percent)`);
  return d.toFixed();
}

/** Creates a tenant, on the latest API version, and one admin key per mode; returns the secrets once. */
export async function createTenant(db: Db, input: CreateTenantInput) {
  const name = input.name.trim();
  if (!name) throw new Error('name must not be empty');
  const invoiceFeeRate = checkRate('invoice fee', input.invoiceFeeRate);
  const withdrawalFeeRate = checkRate('withdrawal fee', input.withdrawalFeeRate);
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(tenants)
      .values({ id: newId('tenant'), name, slug: slugify(name), invoiceFeeRate, withdrawalFeeRate, apiVersion: LATEST_API_VERSION })
      .returning();
    const keys = {
      live: await createApiKey(tx, { tenantId: tenant!.id, mode: 'live', name: 'Admin (live)', scopes: ['admin'] }),
      test: await createApiKey(tx, { tenantId: tenant!.id, mode: 'test', name: 'Admin (test)', scopes: ['admin'] }),
    };
    return { tenant: tenant!, keys };
  });
}
