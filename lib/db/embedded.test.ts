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
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { createWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import { events, withdrawalControls } from '@/db/schema';
import { eq } from 'drizzle-orm';

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
      postLedgerEntry(tx, {
        tenantId: tenant.id,
        mode: 'test',
        amount: '12.34',
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: 'r1',
        currency: 'USDT',
      }),
    );
    await closeDb();

    const again = await getDb();
    await migrate();
    expect((await getTenantOrThrow(again, tenant.id)).name).toBe('Embedded');
    expect(await getBalance(again, { tenantId: tenant.id, mode: 'test', currency: 'USDT' })).toBe('12.34');

    // The money path's inserts (withdrawal row, outbox event, ledger) decode the same on PGlite.
    const withdrawal = await createWithdrawal(
      again,
      { tenantId: tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
      {
        amount: '2.00',
        destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      },
      undefined,
      prepareWithdrawalControls,
    );
    expect(withdrawal).toMatchObject({
      amount: '2.00',
      feeAmount: '0.02',
      status: 'PENDING',
      destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
    });
    expect(Date.parse(withdrawal.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await getBalance(again, { tenantId: tenant.id, mode: 'test', currency: 'USDT' })).toBe('10.32');
    const [event] = await again.select().from(events).where(eq(events.subjectId, withdrawal.id));
    expect(event).toMatchObject({ type: 'withdrawal.created', data: { id: withdrawal.id, amount: '2.00' } });

    // With a 24 h limit the lock, the sum and the debit are pipelined (issue 50): PGlite's socket runs them in order too.
    await again.insert(withdrawalControls).values({ tenantId: tenant.id, mode: 'test', dailyLimit: '3.5' });
    const limited = (amount: string) =>
      createWithdrawal(
        again,
        { tenantId: tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
        { amount, destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
        undefined,
        prepareWithdrawalControls,
      );
    await expect(limited('1.00')).resolves.toMatchObject({ amount: '1.00', status: 'PENDING' });
    await expect(limited('1.00')).rejects.toMatchObject({ code: 'withdrawal_limit_exceeded' });
    expect(await getBalance(again, { tenantId: tenant.id, mode: 'test', currency: 'USDT' })).toBe('9.31');
  });
});
