import { formatUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { setNetworkOverride } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { getGasWallets, type NetworkWallets } from './get-gas-wallets';

/*
 * Two local chains as the test mode's BSC (USDT and USDC at 18 decimals) and
 * Ethereum (both at 6): one entry per network with its own native coin and
 * token balances, and one unreadable network never hiding the other.
 */
let bsc: AnvilChain;
let eth: AnvilChain;

withTestChain(
  async (c) => {
    bsc = c;
    await c.mint(c.addresses.hot, '7.25', c.tokenOf('USDT'));
    await c.mint(c.addresses.hot, '3', c.tokenOf('USDC'));
  },
  {
    tokens: [
      { asset: 'USDT', decimals: 18 },
      { asset: 'USDC', decimals: 18 },
    ],
  },
);
withTestChain(
  async (c) => {
    eth = c;
    await c.mint(c.addresses.hot, '100', c.tokenOf('USDT'));
    await c.mint(c.addresses.hot, '12.5', c.tokenOf('USDC'));
    await c.client.setBalance({ address: c.addresses.gas, value: 10n ** 16n }); // 0.01 ETH: below the 0.05 default
  },
  {
    chain: 'ETHEREUM',
    tokens: [
      { asset: 'USDT', decimals: 6 },
      { asset: 'USDC', decimals: 6 },
    ],
  },
);

const byChain = (list: NetworkWallets[]) => Object.fromEntries(list.map((w) => [w.chain, w]));

describe('console wallets per network', () => {
  it('lists every network of the mode, BSC first, with its native coin and token balances at their decimals', async () => {
    const list = await getGasWallets(['test']);
    expect(list.every((w) => w.mode === 'test')).toBe(true);
    expect(list.map((w) => w.chain).slice(0, 2)).toEqual(['BSC', 'ETHEREUM']);
    const { BSC, ETHEREUM } = byChain(list);

    const bscHotWei = await bsc.client.getBalance({ address: bsc.addresses.hot });
    expect(BSC).toEqual({
      mode: 'test',
      chain: 'BSC',
      chainId: bsc.chainId,
      nativeCoin: 'BNB',
      lowAt: '0.05',
      state: 'ok',
      gas: { address: bsc.addresses.gas, balance: '1000', low: false },
      hot: {
        address: bsc.addresses.hot,
        balance: formatUnits(bscHotWei, 18),
        tokens: [
          { asset: 'USDT', amount: '7.25' },
          { asset: 'USDC', amount: '3' },
        ],
      },
    });
    expect(ETHEREUM).toMatchObject({
      chain: 'ETHEREUM',
      chainId: eth.chainId,
      nativeCoin: 'ETH',
      state: 'ok',
      gas: { address: eth.addresses.gas, balance: '0.01', low: true },
      hot: {
        address: eth.addresses.hot,
        balance: '1000',
        tokens: [
          { asset: 'USDT', amount: '100' },
          { asset: 'USDC', amount: '12.5' },
        ],
      },
    });
  });

  it('a network whose RPC cannot be read is unreadable while the other still shows its balances', async () => {
    setNetworkOverride('test', { ...eth.network('test'), rpcUrl: 'http://127.0.0.1:9' }, 'ETHEREUM');
    try {
      const { BSC, ETHEREUM } = byChain(await getGasWallets(['test']));
      expect(ETHEREUM).toMatchObject({
        chain: 'ETHEREUM',
        nativeCoin: 'ETH',
        state: 'unreadable',
        gasAddress: eth.addresses.gas,
        hotAddress: eth.addresses.hot,
      });
      expect(ETHEREUM).not.toHaveProperty('gas');
      expect(ETHEREUM).not.toHaveProperty('hot');
      expect(BSC).toMatchObject({
        state: 'ok',
        hot: {
          tokens: [
            { asset: 'USDT', amount: '7.25' },
            { asset: 'USDC', amount: '3' },
          ],
        },
      });
    } finally {
      setNetworkOverride('test', eth.network('test'), 'ETHEREUM');
    }
  });
});
