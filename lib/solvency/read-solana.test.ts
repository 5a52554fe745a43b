import { generateKeyPairSigner } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import type { SolanaNetwork } from '@/lib/chain/network';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { solanaDepositOwner } from '@/lib/chain/solana/deposit-owner-key';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { solvencyFamily } from './solvency-families';
import { solanaTestNetwork } from '@/lib/testing/solana-network';

/**
 * Issue 49: the solvency run's read of a Solana network (through SOLVENCY_FAMILIES): the hot wallet's and the deposit
 * owners' token accounts and the gas wallet's SOL at `finalized`, and which withdrawals landed by the slot the hot
 * wallet was read at, on the stand-in.
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let net: SolanaNetwork;
const chainId = CHAIN_SPECS.SOLANA.devChainId.test;

beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  net = solanaTestNetwork(node, { chainId, assets: ['USDC', 'USDT'] });
});
afterAll(async () => {
  await node?.stop();
});

const read = (n: SolanaNetwork, deposits: Map<string, Set<string>>, hashes: () => Promise<string[]>) =>
  solvencyFamily(n).readHoldings(n, deposits, hashes, { timeoutMs: 5_000 });

describe('the Solana solvency read', () => {
  it("reads the hot wallet's and deposit owners' token accounts and the gas wallet's SOL at finalized; a withdrawal counts as gone once finalized", async () => {
    const payer = solanaPayer(node);
    await node.mintTo('USDC', node.keys.hot.address, 50_000_000n);
    const paid = await solanaDepositOwner(DEV_MNEMONIC, 900);
    const unpaid = await solanaDepositOwner(DEV_MNEMONIC, 901);
    await payer.pay(await payer.funded('USDC', 3_000_000n), paid.address, 'USDC', 3_000_000n);
    node.advance(FINALIZED_DEPTH);
    const deposits = new Map([[`${chainId}:USDC`, new Set([paid.address, unpaid.address])]]);

    // A withdrawal from the hot wallet, confirmed and not finalized: still held, not gone.
    const to = (await generateKeyPairSigner()).address;
    const withdrawal = await payer.pay(node.keys.hot, to, 'USDC', 20_000_000n);
    node.advance(1);
    const before = await read(net, deposits, async () => [withdrawal]);
    expect(before.hot).toBe(node.keys.hot.address);
    expect(Object.fromEntries(before.hotBalances)).toEqual({ USDC: '50', USDT: '0' });
    expect(Object.fromEntries(before.depositBalances)).toEqual({ [`USDC:${paid.address}`]: '3', [`USDC:${unpaid.address}`]: '0' });
    expect(before.mined.size).toBe(0);
    expect(before.gas!.address).toBe(node.keys.gas.address);
    expect(Number(before.gas!.balance)).toBeGreaterThan(999);

    node.advance(FINALIZED_DEPTH);
    const after = await read(net, deposits, async () => [withdrawal]);
    expect(after.hotBalances.get('USDC')).toBe('30');
    expect([...after.mined]).toEqual([withdrawal.toLowerCase()]);
    expect(after.blockNumber).toBeGreaterThan(before.blockNumber);
    expect(solvencyFamily(net).gasFloor(net)).toEqual({ asset: 'SOL', floor: '0.1' });
  });

  it('a withdrawal finalized after the balances were read is not counted as gone (it is still in them)', async () => {
    const payer = solanaPayer(node);
    const to = (await generateKeyPairSigner()).address;
    const held = await read(net, new Map(), async () => []);
    const withdrawal = await payer.pay(node.keys.hot, to, 'USDC', 5_000_000n);
    const got = await read(net, new Map(), async () => {
      // Between the balance reads and the status reads: the withdrawal lands and finalizes.
      node.advance(FINALIZED_DEPTH + 1);
      return [withdrawal];
    });
    expect(got.hotBalances.get('USDC')).toBe(held.hotBalances.get('USDC'));
    expect(got.mined.size).toBe(0);
  });

  it('a failed read throws, never a zero', async () => {
    const broken = await faultySolanaNode(node.url, { getBalance: { error: { code: -32603, message: 'Internal error' } } });
    try {
      await expect(read({ ...net, rpcUrl: broken.url }, new Map(), async () => [])).rejects.toBeInstanceOf(RpcReadError);
    } finally {
      await broken.stop();
    }
    await expect(read({ ...net, rpcUrl: 'http://127.0.0.1:1' }, new Map(), async () => [])).rejects.toBeInstanceOf(RpcReadError);
  });
});
