import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { createTenant } from '@/lib/tenants/create-tenant';
import { createUser } from '@/lib/users/create-user';

export const DEMO_LOGIN = { email: 'demo@example.com', password: 'demo-password-123' };

/**
 * First start in development: a demo tenant, its keys and a dashboard login.
 * Secrets are shown once on the console and kept in DATA_DIR/demo-credentials.json
 * (development only) so they can be found again.
 */
export async function seedDemoTenant(db: Db): Promise<void> {
  const [{ n }] = (await db.select({ n: count() }).from(tenants)) as [{ n: number }];
  if (Number(n) > 0) return;
  const { tenant, keys } = await createTenant(db, { name: 'Demo Store', invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
  await createUser(db, { ...DEMO_LOGIN, role: 'owner', tenantId: tenant.id });
  const creds = { tenantId: tenant.id, testKey: keys.test.key, liveKey: keys.live.key, dashboard: DEMO_LOGIN };
  const dir = path.resolve(env().DATA_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'demo-credentials.json'), JSON.stringify(creds, null, 2), { mode: 0o600 });
  console.log(
    [
      '',
      '  Demo tenant created (first start)',
      `  tenant:     ${tenant.id}`,
      `  test key:   ${keys.test.key}`,
      `  dashboard:  ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
      `  saved in ${path.join(dir, 'demo-credentials.json')}`,
      '',
    ].join('\n'),
  );
}
