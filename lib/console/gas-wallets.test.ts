import { parseEther } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { setNetworkOverride } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { getGasWallets } from './get-gas-wallets';

let chain: AnvilChain;
withTestChain((c) => {
  chain = c;
});

afterEach(() => setNetworkOverride('test', chain.network('test')));

describe('console gas wallets', () => {
  it('shows the BNB balance read from the chain, and warns below the threshold', async () => {
    const wei = await chain.client.getBalance({ address: chain.addresses.gas });
    const [ok] = await getGasWallets(['test']);
    expect(ok).toMatchObject({ mode: 'test', state: 'ok', address: chain.addresses.gas });
    expect(ok!.state !== 'not_configured' && ok!.state !== 'unavailable' && parseEther(ok!.balance)).toBe(wei);

    setNetworkOverride('test', { ...chain.network('test'), gasWalletLowBnb: '100000000' });
    expect((await getGasWallets(['test']))[0]).toMatchObject({ state: 'low', lowAt: '100000000' });
  });

  it('a failed read is "unavailable", never a balance of 0', async () => {
    setNetworkOverride('test', { ...chain.network('test'), rpcUrl: 'http://127.0.0.1:9/' });
    const [w] = await getGasWallets(['test']);
    expect(w).toMatchObject({ state: 'unavailable' });
    expect(w).not.toHaveProperty('balance');
  });

  it('a network without a gas wallet is "not configured"', async () => {
    setNetworkOverride('test', { ...chain.network('test'), gasWalletKey: undefined });
    expect((await getGasWallets(['test']))[0]).toMatchObject({ state: 'not_configured' });
  });
});
