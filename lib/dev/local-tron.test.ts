import { afterAll, describe, expect, it } from 'vitest';
import type { TronNode } from '@/devtools/tron-node/tron-node';
import { freePort } from '@/lib/testing/anvil';
import { localTronEnv } from './local-tron-env';
import { planLocalTron } from './local-tron';

/*
 * Issue 45, the first minutes: Next once waited for both TRON stand-ins to start, because their USDT and keys were
 * known only then. Now `npm run dev` gives Next the stand-in's settings from a plan and starts the node meanwhile;
 * the started node must be what the plan said.
 */
describe('the TRON stand-in of npm run dev, planned before it starts', () => {
  const nodes: TronNode[] = [];
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  });

  it(
    'its env (URL, chain id, USDT, wallets, collector) is known before it runs and is what the started node serves',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const chainId = 1_234_567_890;
      const tron = planLocalTron({ mode: 'test', port, chainId, blockTimeMs: 3_000, started: (n) => nodes.push(n) });
      expect(nodes).toHaveLength(0); // nothing runs yet
      expect(tron.env.TEST_TRON_RPC_URL).toBe(`http://127.0.0.1:${port}`);
      expect(tron.env.TEST_TRON_CHAIN_ID).toBe(String(chainId));

      await tron.start(); // throws if the node differs from the plan
      const node = nodes[0]!;
      const { TEST_TRON_COLLECTOR_ADDRESS: collector, TEST_TRON_COLLECTOR_ADMIN_PRIVATE_KEY: admin, ...rest } = tron.env;
      expect(rest).toEqual(localTronEnv('test', node, chainId));
      // Issue 48: the subscription collector is where the plan said, deployed by the energy wallet (its admin too).
      expect(admin).toBe(`0x${node.keys.gas.privateKey}`);
      const deployed = await node.tronWeb(node.keys.gas.privateKey).trx.getContract(collector!);
      expect(deployed).toMatchObject({ origin_address: node.keys.gas.hex, consume_user_resource_percent: 100, name: 'SubscriptionCollector' });
      // Test mode's faucet ("Simulate payment") holds its USDT once the next block is in.
      await node.mine();
      const usdt = await node.tronWeb(node.keys.other.privateKey).contract().at(node.usdt);
      expect(BigInt(String(await usdt.balanceOf(node.keys.other.address).call()))).toBe(1_000_000_000_000n);
    },
  );
});
