import { createSolanaRpc } from '@solana/kit';
import { afterAll, describe, expect, it } from 'vitest';
import type { SolanaNode } from '@/devtools/solana-node/solana-node';
import { freePort } from '@/lib/testing/anvil';
import { planLocalSolana } from './local-solana';

/*
 * Issue 49: `npm run dev` starts the Solana stand-in like the TRON one (issue 45): Next gets its settings from a plan
 * and the node starts meanwhile; the started node must be what the plan said, its slots advance on their own, and
 * test mode's faucet holds the tokens "Simulate payment" sends.
 */
describe('the Solana stand-in of npm run dev, planned before it starts', () => {
  const nodes: SolanaNode[] = [];
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  });

  it(
    'its env (URL, mints, wallets, faucet) is known before it runs and is what the started node serves; slots advance',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const sol = planLocalSolana({ mode: 'test', port, slotTimeMs: 50, started: (n) => nodes.push(n) });
      expect(nodes).toHaveLength(0); // nothing runs yet
      expect(sol.env.TEST_SOLANA_RPC_URL).toBe(`http://127.0.0.1:${port}`);
      expect(Object.keys(sol.env).sort()).toEqual(
        [
          'TEST_SOLANA_RPC_URL',
          'TEST_SOLANA_USDC_ADDRESS',
          'TEST_SOLANA_USDT_ADDRESS',
          'TEST_SOLANA_GAS_WALLET_PRIVATE_KEY',
          'TEST_SOLANA_HOT_WALLET_PRIVATE_KEY',
          'TEST_SOLANA_FEE_WALLET_ADDRESS',
          'TEST_SOLANA_FAUCET_PRIVATE_KEY',
        ].sort(),
      );
      expect(Object.keys(planLocalSolana({ mode: 'live', port, slotTimeMs: 50, started: () => {} }).env)).not.toContain(
        'TEST_SOLANA_FAUCET_PRIVATE_KEY',
      );

      const node = await sol.start(); // throws if the node differs from the plan
      const rpc = createSolanaRpc(node.url);
      const slot = () => rpc.getSlot({ commitment: 'confirmed' }).send();
      const first = await slot();
      await expect.poll(slot, { timeout: 5_000 }).toBeGreaterThan(first + 3n);
      for (const token of ['USDC', 'USDT'] as const) {
        const { value } = await rpc
          .getTokenAccountsByOwner(node.keys.faucet.address, { mint: node.mints[token] }, { commitment: 'confirmed', encoding: 'jsonParsed' })
          .send();
        expect(value.map((a) => a.account.data.parsed.info.tokenAmount.amount)).toEqual(['1000000000000']);
      }
      for (const k of [node.keys.gas, node.keys.hot, node.keys.other]) {
        expect((await rpc.getBalance(k.address, { commitment: 'confirmed' }).send()).value).toBe(1_000_000_000_000n);
      }
    },
  );
});
