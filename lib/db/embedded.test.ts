import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, dbKind, getDb, migrate } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { createTenant } from '@/lib/tenants/create-tenant';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { getBalance } from '@/lib/ledger/get-balance';

// The embedded default: no DATABASE_URL means PGlite with its data under DATA_DIR.
describe('embedded PGlite database', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gw-pglite-'));
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = saved.DATABASE_URL;
    process.env.DATA_DIR = saved.DATA_DIR ?? '';
    resetEnvCache();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps tenants and balances across a restart', async () => {
    await closeDb();
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dir;
    resetEnvCache();
    expect(await dbKind()).toBe('pglite');
    await migrate();
    const db = await getDb();
    const { tenant } = await createTenant(db, { name: 'Embedded' });
    await db.transaction((tx) =>
      postLedgerEntry(tx, { tenantId: tenant.id, mode: 'test', amount: '12.34', kind: 'test_credit', referenceType: 'test', referenceId: 'r1' }),
    );
    await closeDb();

    const again = await getDb();
    await migrate();
    expect((await getTenantOrThrow(again, tenant.id)).name).toBe('Embedded');
    expect(await getBalance(again, { tenantId: tenant.id, mode: 'test' })).toBe('12.34');
  });
});
