import { sql } from 'drizzle-orm';
import { mnemonicToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { getDb, rowsOf } from '@/lib/db';
import { claimDepositAddress } from './claim-deposit-address';
import { depositKeyId } from './deposit-key-id';
import { refillAddressPool } from './refill-address-pool';

// A mnemonic of its own, so other test files' claims do not interfere.
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

it('pre-derives addresses, hands each out once under concurrency, then falls back to inline derivation', async () => {
  const db = await getDb();
  expect(await refillAddressPool(db, MNEMONIC, { target: 30, batch: 7 })).toBe(30);
  expect(await refillAddressPool(db, MNEMONIC, { target: 30 })).toBe(0);
  const claimed = await Promise.all(Array.from({ length: 40 }, () => claimDepositAddress(db, 'BSC', MNEMONIC)));
  expect(new Set(claimed.map((c) => c.index)).size).toBe(40);
  expect(new Set(claimed.map((c) => c.address)).size).toBe(40);
  for (const c of claimed) expect(c.address).toBe(mnemonicToAccount(MNEMONIC, { addressIndex: c.index }).address.toLowerCase());
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from deposit_address_pool where key_id = ${depositKeyId(MNEMONIC)}`),
  ) as [{ n: number }];
  expect(n).toBe(0);
});

it('invoice creation claims a pooled address and writes it checksummed into invoice.created', async () => {
  const db = await getDb();
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { createInvoice } = await import('@/lib/invoices/create-invoice');
  const { CreateInvoiceBody } = await import('@/lib/invoices/schemas');
  const t = await createTestTenant();
  await refillAddressPool(db, MNEMONIC, { target: 2 });
  const owner = { tenantId: t.tenant.id, mode: 'test' as const };
  const net = { chain: 'BSC' as const, chainId: 4242, confirmations: 5, depositMnemonic: MNEMONIC };
  const created = [];
  for (let i = 0; i < 3; i++) created.push(await createInvoice(db, owner, net, CreateInvoiceBody.parse({ amount: '3' })));
  for (const inv of created) {
    const [row] = rowsOf<{ address_index: string; data: { depositAddress: string; invoiceId: string } }>(
      await db.execute(sql`select i.address_index::text, e.data from invoices i join events e on e.subject_id = i.id where i.id = ${inv.id}`),
    );
    const expected = mnemonicToAccount(MNEMONIC, { addressIndex: Number(row!.address_index) }).address;
    expect(inv.depositAddress).toBe(expected);
    expect(row!.data.depositAddress).toBe(expected);
    expect(row!.data.invoiceId).toBe(inv.id);
  }
});
