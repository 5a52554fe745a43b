import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { rowsOf } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronDepositKey } from '@/lib/chain/tron/deposit-key';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { startTronRail, type TronRail } from './tron-rail';

let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

describe('a TRON:USDT invoice', () => {
  it("gets a T… deposit address of the TRON branch (m/44'/195'/0'/0/i), stored as 41… hex", async () => {
    const t = await createTestTenant();
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '9.00', chain: 'TRON', token: 'USDT' } });
    expect(res.status).toBe(201);
    expect(res.body.chain).toBe('TRON');
    expect(res.body.depositAddress).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const [row] = rowsOf<{ deposit_address: string; address_index: string }>(
      await t.db.execute(sql`select deposit_address, address_index::text as address_index from invoices where id = ${res.body.id}`),
    );
    const key = tronDepositKey(DEV_MNEMONIC, Number(row!.address_index));
    expect(row!.deposit_address).toBe(key.hex);
    expect(res.body.depositAddress).toBe(key.address);
  });

  it('refuses a 0x destination on TRON with a clear 400', async () => {
    const t = await createTestTenant();
    const res = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: '5.00', chain: 'TRON', token: 'USDT', destinationAddress: '0x1111111111111111111111111111111111111111' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code, res.text).toBe('invalid_address');
    expect(res.body.message).toMatch(/is an EVM \(0x…\) address; TRON takes TRON \(T…\) addresses/);
  });
});
