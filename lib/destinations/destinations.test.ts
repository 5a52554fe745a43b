import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { generateMnemonic, english, generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { refillAddressPool } from '@/lib/chain/refill-address-pool';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { getNetwork, setNetworkOverride, type EvmNetwork } from '@/lib/chain/network';
import { networkOfFamily } from '@/lib/testing/network-family';
import { rowsOf } from '@/lib/db';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { creditAsset } from '@/lib/testing/usdc-rails';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import { depositKeyId } from '@/lib/chain/deposit-key-id';

/*
 * One destination module for withdrawals, refunds, payer proposals and the allow-list, on every network
 * (issue 30, section 5): a token contract, one of our wallets on that network or any deposit address is
 * refused with its own code. Before, every check used BSC's wallets, token contracts were never refused
 * and the allow-list took anything. Nothing here is sent: the networks have no RPC.
 */
const key = () => generatePrivateKey();
const wallets = { bscHot: key(), bscGas: key(), polygonHot: key(), polygonGas: key() };
const BSC_USDT = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000b1');
const POLYGON_USDT = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000c1');
const POLYGON_USDC = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000c2');
const PERSON = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

beforeAll(() => {
  const env = networkOfFamily(getNetwork('test', 'BSC'), 'evm');
  const bsc: EvmNetwork = {
    ...env,
    tokenAddress: BSC_USDT,
    tokens: [{ asset: 'USDT', address: BSC_USDT, decimals: 18 }],
    gasWalletKey: wallets.bscGas as Hex,
    hotWalletKey: wallets.bscHot as Hex,
  };
  setNetworkOverride('test', bsc, 'BSC');
  setNetworkOverride(
    'test',
    {
      ...bsc,
      chain: 'POLYGON',
      chainId: 80002,
      token: 'USDT',
      tokenAddress: POLYGON_USDT,
      decimals: 6,
      tokens: [
        { asset: 'USDT', address: POLYGON_USDT, decimals: 6 },
        { asset: 'USDC', address: POLYGON_USDC, decimals: 6 },
      ],
      gasWalletKey: wallets.polygonGas as Hex,
      hotWalletKey: wallets.polygonHot as Hex,
    },
    'POLYGON',
  );
});
afterAll(() => {
  setNetworkOverride('test', undefined, 'BSC');
  setNetworkOverride('test', undefined, 'POLYGON');
});

const polygonHot = privateKeyToAddress(wallets.polygonHot as Hex);
const polygonGas = privateKeyToAddress(wallets.polygonGas as Hex);

async function tenantWithBalance() {
  const t = await createTestTenant();
  for (const currency of ['USDT', 'USDC'] as const) await creditAsset(t.db, t.tenant.id, currency, '100');
  return t;
}

describe('destinations', () => {
  it('a refund of a Polygon invoice to our Polygon hot wallet is refused with its message, whatever the invoice state', async () => {
    const t = await tenantWithBalance();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00', chain: 'POLYGON', token: 'USDT' } });
    expect(inv.status, inv.text).toBe(201);
    const res = await call('POST', `/v1/invoices/${inv.body.id}/refunds`, { key: t.test, body: { destinationAddress: polygonHot, amount: '1.00' } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      code: 'destination_own_wallet',
      message: "destinationAddress: is one of this gateway's own wallets on Polygon PoS",
      details: [{ path: 'destinationAddress' }],
    });
  });

  it("the payer cannot propose our Polygon gas wallet for a Polygon invoice's refund", async () => {
    const t = await tenantWithBalance();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00', chain: 'POLYGON', token: 'USDC' } });
    const claimToken = new URL(inv.body.checkoutUrl, 'http://x').searchParams.get('claim')!;
    const err = await proposeRefundAddress(t.db, inv.body.id, { destinationAddress: polygonGas, claimToken }, { address: null }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'destination_own_wallet', message: "destinationAddress: is one of this gateway's own wallets on Polygon PoS" });
  });

  it('a withdrawal to a token contract, or to any deposit address (issued on another network, or still in the pool), is refused with its code', async () => {
    const t = await tenantWithBalance();
    const polygonInvoice = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00', chain: 'POLYGON', token: 'USDC' } });
    const mnemonic = generateMnemonic(english);
    await refillAddressPool(t.db, mnemonic, { target: 1 });
    const [pooled] = rowsOf<{ address: string }>(
      await t.db.execute(sql`select address from deposit_address_pool where key_id = ${depositKeyId(mnemonic)} limit 1`),
    );
    const cases: [Record<string, string>, string, string][] = [
      [
        { destinationAddress: BSC_USDT },
        'destination_token_contract',
        'is a token contract on BNB Smart Chain, not a wallet: tokens sent there are lost',
      ],
      [{ destinationAddress: POLYGON_USDC, chain: 'POLYGON', token: 'USDC' }, 'destination_token_contract', 'is a token contract on Polygon PoS'],
      [{ destinationAddress: polygonInvoice.body.depositAddress }, 'destination_deposit_address', 'is a deposit address of this gateway'],
      [
        { destinationAddress: pooled!.address, chain: 'POLYGON', token: 'USDT' },
        'destination_deposit_address',
        'is a deposit address of this gateway',
      ],
      [{ destinationAddress: polygonHot, chain: 'POLYGON', token: 'USDT' }, 'destination_own_wallet', 'own wallets on Polygon PoS'],
    ];
    for (const [body, code, message] of cases) {
      const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', ...body } });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, code]);
      expect(res.body.message).toContain(message);
    }
    // A person's wallet is fine on either network.
    for (const chain of ['BSC', 'POLYGON']) {
      const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: PERSON, chain, token: 'USDT' } });
      expect(res.status, res.text).toBe(201);
    }
  });

  it('the allow-list refuses our own wallets, token contracts and deposit addresses on any network; other addresses are listed', async () => {
    const t = await createTestTenant();
    const user = await createUser(t.db, {
      email: `dest-${process.pid}-${Date.now()}@example.com`,
      password: 'correct horse battery',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const s = { owner: { tenantId: t.tenant.id, mode: 'test' as const }, user, actor: userActor({ user }) };
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    for (const [address, code] of [
      [polygonHot, 'destination_own_wallet'],
      [POLYGON_USDT, 'destination_token_contract'],
      [inv.body.depositAddress, 'destination_deposit_address'],
    ] as const) {
      await expect(addAllowlistAddress(t.db, s, { address }), address).rejects.toMatchObject({ code });
    }
    expect(await addAllowlistAddress(t.db, s, { address: PERSON })).toMatchObject({ address: PERSON.toLowerCase() });
    // An exchange payout address of another coin is not an EVM address: listed as it is.
    expect(await addAllowlistAddress(t.db, s, { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })).toMatchObject({ label: null });
  });
});
