import { afterAll, beforeAll } from 'vitest';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { getNetwork, setNetworkOverride } from '@/lib/chain/network';
import { networkOfFamily } from './network-family';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

// Placeholder contracts: nothing here talks to a chain (withdrawals are created PENDING and never sent).
const BSC_USDT = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000a1');
const BSC_USDC = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000a2');
const ETH_USDC = EVM_ADDRESS_CODEC.parse('0x00000000000000000000000000000000000000a3');

/**
 * Enables, for a test file, the test mode's BSC USDC (18 decimals) and Ethereum
 * USDC (6 decimals) rails without starting a chain, so that USDC withdrawals can
 * be created and debited. `disable()` restores the environment's networks (no
 * USDC rail) for a test that needs the asset off; `enable()` puts them back.
 */
export function withUsdcRails() {
  const enable = () => {
    const bsc = networkOfFamily(getNetwork('test', 'BSC'), 'evm');
    setNetworkOverride('test', {
      ...bsc,
      tokens: [
        { asset: 'USDT', address: BSC_USDT, decimals: 18 },
        { asset: 'USDC', address: BSC_USDC, decimals: 18 },
      ],
    });
    setNetworkOverride(
      'test',
      {
        ...bsc,
        chain: 'ETHEREUM',
        chainId: 31347,
        token: 'USDC',
        tokenAddress: ETH_USDC,
        decimals: 6,
        tokens: [{ asset: 'USDC', address: ETH_USDC, decimals: 6 }],
      },
      'ETHEREUM',
    );
  };
  const disable = () => {
    setNetworkOverride('test', undefined, 'BSC');
    setNetworkOverride('test', undefined, 'ETHEREUM');
  };
  beforeAll(enable);
  afterAll(disable);
  return { enable, disable };
}

let seq = 0;

/** Credits a tenant's balance of one asset through the ledger (as a settled invoice would). */
export async function creditAsset(db: Db, tenantId: string, currency: 'USDT' | 'USDC', amount: string, mode: Mode = 'test') {
  await db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId,
      mode,
      currency,
      amount,
      kind: 'test_credit',
      referenceType: 'test',
      referenceId: `usdc-rails-${process.pid}-${++seq}`,
    }),
  );
}
