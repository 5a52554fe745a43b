import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import type { SolanaNetwork } from '@/lib/chain/network';
import { faultySolanaNode } from '@/lib/testing/solana-payer';
import { readSolanaWallets } from './read-solana-wallets';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/** Issue 49: the console's wallet read of a Solana network on the stand-in: SOL of the gas and hot wallets, the hot wallet's tokens. */
let node: SolanaNode;
let net: SolanaNetwork;

beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: 4 });
  net = solanaTestNetwork(node, { assets: ['USDC', 'USDT'] });
});
afterAll(async () => {
  await node?.stop();
});

describe('the console wallet read of a Solana network', () => {
  it("shows the gas wallet's SOL against its floor and the hot wallet's SOL and tokens (0 without a token account)", async () => {
    await node.mintTo('USDC', node.keys.hot.address, 7_250_000n);
    node.advance(1);
    const got = await readSolanaWallets(net);
    expect(got).toMatchObject({
      state: 'ok',
      nativeCoin: 'SOL',
      lowAt: '0.1',
      gas: { address: node.keys.gas.address, balance: '1000', low: false },
      hot: {
        address: node.keys.hot.address,
        tokens: [
          { asset: 'USDC', amount: '7.25' },
          { asset: 'USDT', amount: '0' },
        ],
      },
    });
  });

  it('a failed read makes the network unreadable, never 0', async () => {
    const broken = await faultySolanaNode(node.url, { getAccountInfo: { error: { code: -32603, message: 'Internal error' } } });
    try {
      const got = await readSolanaWallets({ ...net, rpcUrl: broken.url });
      expect(got).toMatchObject({ state: 'unreadable', gasAddress: node.keys.gas.address, hotAddress: node.keys.hot.address });
    } finally {
      await broken.stop();
    }
  });
});
