import { createServer, type Socket } from 'node:net';
import { formatUnits, parseEther } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { setNetworkOverride } from '@/lib/chain/network';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { getGasWallets, type NetworkWallets } from './get-gas-wallets';

let chain: AnvilChain;
withTestChain((c) => {
  chain = c;
});

afterEach(() => setNetworkOverride('test', chain.network('test')));

const bscOf = async (): Promise<NetworkWallets> => (await getGasWallets(['test'])).find((w) => w.chain === 'BSC')!;

describe('console gas wallets', () => {
  it('shows the BNB balance read from the chain, and warns below the threshold', async () => {
    const wei = await chain.client.getBalance({ address: chain.addresses.gas });
    const ok = await bscOf();
    expect(ok).toMatchObject({ mode: 'test', chain: 'BSC', nativeCoin: 'BNB', state: 'ok', gas: { address: chain.addresses.gas, low: false } });
    expect(ok.state === 'ok' && parseEther(ok.gas!.balance)).toBe(wei);

    setNetworkOverride('test', { ...chain.network('test'), gasWalletLow: '100000000' });
    expect(await bscOf()).toMatchObject({ state: 'ok', lowAt: '100000000', gas: { low: true } });
  });

  it("shows the hot wallet's native coin and token balances", async () => {
    const [wei, units] = await Promise.all([chain.client.getBalance({ address: chain.addresses.hot }), chain.tokenBalance(chain.addresses.hot)]);
    const w = await bscOf();
    expect(w).toMatchObject({
      state: 'ok',
      hot: { address: chain.addresses.hot, balance: formatUnits(wei, 18), tokens: [{ asset: 'USDT', amount: formatUnits(units, 18) }] },
    });
  });

  it('a failed read is "unreadable", never a balance of 0', async () => {
    setNetworkOverride('test', { ...chain.network('test'), rpcUrl: 'http://127.0.0.1:9/' });
    const w = await bscOf();
    expect(w).toMatchObject({ state: 'unreadable', gasAddress: chain.addresses.gas, hotAddress: chain.addresses.hot });
    expect(w).not.toHaveProperty('gas');
    expect(w).not.toHaveProperty('hot');
    expect(w.state === 'unreadable' && w.error).not.toMatch(/127\.0\.0\.1/);
  });

  it('a slow read is "unreadable" after the timeout', async () => {
    // A listening socket that never answers: the read hangs until the timeout.
    const sockets: Socket[] = [];
    const srv = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const port = (srv.address() as { port: number }).port;
      setNetworkOverride('test', { ...chain.network('test'), rpcUrl: `http://127.0.0.1:${port}` });
      const w = (await getGasWallets(['test'], 300)).find((n) => n.chain === 'BSC')!;
      expect(w).toMatchObject({ state: 'unreadable', error: 'timed out after 300 ms' });
    } finally {
      for (const s of sockets) s.destroy();
      srv.close();
    }
  });

  it('a network without wallet keys is "not configured"; one without a gas wallet still shows its hot wallet', async () => {
    setNetworkOverride('test', { ...chain.network('test'), gasWalletKey: undefined, hotWalletKey: undefined });
    expect(await bscOf()).toMatchObject({ state: 'not_configured' });

    setNetworkOverride('test', { ...chain.network('test'), gasWalletKey: undefined });
    expect(await bscOf()).toMatchObject({ state: 'ok', gas: null, hot: { address: chain.addresses.hot } });
  });
});
