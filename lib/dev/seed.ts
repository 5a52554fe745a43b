import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { createTenant } from '@/lib/tenants/create-tenant';
import { createUser } from '@/lib/users/create-user';

export const DEMO_LOGIN = { email: 'demo@example.com', password: 'demo-password-123' };
export const DEMO_SUPPORT_EMAIL = 'support@demo.example.com';

/**
 * First start in development: a demo tenant, its keys, a dashboard login and a console (support) login.
 * Secrets are shown once on the console and kept in DATA_DIR/demo-credentials.json
 * (development only) so they can be found again.
 */
export async function seedDemoTenant(db: Db): Promise<void> {
  // Several processes may boot at once on one fresh database (two `npm run dev` sharing it): the
  // lock makes one of them seed and the others find its tenant, instead of a second demo tenant.
  const seeded = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('usdt-gateway:demo-seed'))`);
    const [{ n }] = (await tx.select({ n: count() }).from(tenants)) as [{ n: number }];
    if (Number(n) > 0) return null;
    const { tenant, keys } = await createTenant(tx, { name: 'Demo Store', invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    await createUser(tx, { ...DEMO_LOGIN, role: 'owner', tenantId: tenant.id });
    // A support user too, so the console (/console) is one sign-in away; its password is random.
    const consoleLogin = { email: DEMO_SUPPORT_EMAIL, password: randomBytes(12).toString('base64url') };
    await createUser(tx, { ...consoleLogin, role: 'support' });
    return { tenant, keys, consoleLogin };
  });
  if (!seeded) return;
  const { tenant, keys, consoleLogin } = seeded;
  const creds = { tenantId: tenant.id, testKey: keys.test.key, liveKey: keys.live.key, dashboard: DEMO_LOGIN, console: consoleLogin };
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
      `  console:    ${consoleLogin.email} / ${consoleLogin.password}  (support user, /console)`,
      `  saved in ${path.join(dir, 'demo-credentials.json')}`,
      '',
    ].join('\n'),
  );
}
