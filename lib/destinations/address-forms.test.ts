import { eq, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { toBase58, toHex41 } from '@/lib/chain/tron/address';
import { parseWireAddress } from '@/lib/chain/address-codecs';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { parseExchangeWallets } from '@/lib/config/exchange-wallets';
import { knownExchangeWallets } from '@/lib/destinations/known-exchange-wallets';
import { refuseDepositAddress } from '@/lib/destinations/check-destination';
import { checkSendBackSender } from '@/lib/destinations/check-sender';
import { rowsOf } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { createTestTenant } from '@/lib/testing/fixtures';

/*
 * Issue 42 §2: one account, two spellings. A TRON address is 0x41 + the 20 bytes an EVM address has; the same key
 * holds both. The exchange list refused `T…` entries, and the deposit-address refusal compared stored forms, so the
 * `0x` form of a TRON deposit address (or the `T…` form of an EVM one) passed. Both now go through the family
 * address codec (lib/chain/address-codecs.ts) and compare the 20 bytes.
 */
const EXCHANGE_EVM = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const EXCHANGE_TRON = toBase58(toHex41(`0x${'5a'.repeat(20)}`));

describe('KNOWN_EXCHANGE_WALLETS', () => {
  it('takes T… entries beside 0x ones, and refuses a T… entry with a bad checksum', () => {
    const list = knownExchangeWallets({ KNOWN_EXCHANGE_WALLETS: `${EXCHANGE_EVM}, ${EXCHANGE_TRON} # an exchange on TRON` });
    expect([...list]).toEqual([EXCHANGE_EVM.toLowerCase(), `0x${'5a'.repeat(20)}`]);
    const typo = `${EXCHANGE_TRON.slice(0, -1)}${EXCHANGE_TRON.endsWith('a') ? 'b' : 'a'}`;
    expect(() => knownExchangeWallets({ KNOWN_EXCHANGE_WALLETS: typo })).toThrow(/is not an address of any network/);
    expect(() => parseExchangeWallets('0x1234')).toThrow(/is not an address/);
  });

  it('a T… entry refuses sending a TRON held payment back to that sender', async () => {
    const saved = process.env.KNOWN_EXCHANGE_WALLETS;

    try {
      process.env.KNOWN_EXCHANGE_WALLETS = EXCHANGE_TRON;
      resetEnvCache();
      // The list is read before the node is asked anything: no TRON node is needed.
      await expect(checkSendBackSender({ chain: 'TRON' } as Network, toHex41(EXCHANGE_TRON))).rejects.toMatchObject({
        code: 'sender_not_refundable',
        message: expect.stringContaining(`the sender ${EXCHANGE_TRON} is a known exchange hot wallet`),
      });
    } finally {
      if (saved === undefined) delete process.env.KNOWN_EXCHANGE_WALLETS;
      else process.env.KNOWN_EXCHANGE_WALLETS = saved;
      resetEnvCache();
    }
  });
});

describe('a deposit address in the other family’s form', () => {
  it('is refused: the T… form of an EVM deposit address, the 0x form of a TRON one, the T… form of a pooled one', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const make = () =>
      createInvoice(
        t.db,
        owner,
        { chain: 'BSC', chainId: 31337, confirmations: 5, depositMnemonic: DEV_MNEMONIC },
        CreateInvoiceBody.parse({ amount: '10.00' }),
      );
    const evm = await make();
    // A TRON invoice stores its deposit address as 41… hex (lib/chain/tron/address.ts): written so, no TRON node needed.
    const tron = await make();
    const tronBytes = `0x${'7c'.repeat(20)}`;
    await t.db
      .update(invoices)
      .set({ depositAddress: toHex41(tronBytes) })
      .where(eq(invoices.id, tron.id));
    const [pooled] = rowsOf<{ address: string }>(await t.db.execute(sql`select address from deposit_address_pool limit 1`));

    const forms: [string, string][] = [
      ['T… form of an EVM deposit address', toBase58(toHex41(evm.depositAddress))],
      ['0x form of a TRON deposit address', getAddress(tronBytes)],
      ['lower-case 0x form of a TRON deposit address', tronBytes],
      ['T… form of a TRON deposit address (as before)', toBase58(toHex41(tronBytes))],
      ['0x form of an EVM deposit address (as before)', getAddress(evm.depositAddress)],
    ];
    if (pooled) forms.push(['T… form of a pooled address', toBase58(toHex41(pooled.address))]);
    for (const [label, address] of forms) {
      await expect(refuseDepositAddress(t.db, parseWireAddress(address)), label).rejects.toMatchObject({ code: 'destination_deposit_address' });
    }
    // Anyone else's address, in either form, passes.
    await refuseDepositAddress(t.db, parseWireAddress(EXCHANGE_EVM));
    await refuseDepositAddress(t.db, parseWireAddress(toBase58(toHex41(EXCHANGE_EVM))));
  });
});
