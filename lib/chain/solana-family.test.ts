import { createKeyPairSignerFromPrivateKeyBytes } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { solanaEnvAddress } from '@/lib/config/solana/env-address';
import { ADDRESS_CODECS } from './address-codecs';
import { addressFamilyOf, addressProblem } from './address-rules';
import { UnsupportedOnRailError } from './common/unsupported-on-rail';
import { FAMILIES, familyOps } from './families';
import { withoutStoppedRails, type SolanaNetwork } from './network';
import { solanaDepositOwner } from './solana/deposit-owner-key';
import { faultySolanaNode } from '@/lib/testing/solana-payer';
import { solanaTestNetwork } from '@/lib/testing/solana-network';
import { clearRailVerdicts } from './rail-stops';

const rpcCall = async (url: string, method: string) =>
  ((await (await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) })).json()) as { result: unknown })
    .result;

/**
 * Solana through the family seam (issue 49, step 1): FamilyOps answers from lib/chain/solana against the stand-in,
 * and what is not built refuses with UnsupportedOnRailError instead of answering.
 */
let node: SolanaNode;
let net: SolanaNetwork & { rpcUrl: string };
const codec = ADDRESS_CODECS.solana;
beforeAll(async () => {
  node = await startSolanaNode();
  net = solanaTestNetwork(node, { assets: ['USDC', 'USDT'] });
});
afterAll(async () => {
  await node.stop();
});

describe('the Solana family', () => {
  it("is the table's entry for SOLANA", () => {
    expect(familyOps('SOLANA')).toBe(FAMILIES.solana);
    expect(familyOps('SOLANA').family).toBe('solana');
  });

  it("configures the stand-in's fixed mints and wallets, and mainnet's mints as Circle and Tether publish them", async () => {
    expect(codec.wireForm(SOLANA_DEV.mints.USDC)).toBe(node.mints.USDC);
    expect(codec.wireForm(SOLANA_DEV.mints.USDT)).toBe(node.mints.USDT);
    const gas = await createKeyPairSignerFromPrivateKeyBytes(Buffer.from(SOLANA_DEV.gasWalletKey.slice(2), 'hex'));
    const hot = await createKeyPairSignerFromPrivateKeyBytes(Buffer.from(SOLANA_DEV.hotWalletKey.slice(2), 'hex'));
    expect(gas.address).toBe(node.keys.gas.address);
    expect(hot.address).toBe(node.keys.hot.address);
    expect(codec.wireForm(SOLANA_DEV.feeWallet)).toBe(node.keys.fee.address);
    expect(codec.wireForm(CHAIN_SPECS.SOLANA.tokens.USDC!.mainnet)).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    expect(codec.wireForm(CHAIN_SPECS.SOLANA.tokens.USDT!.mainnet)).toBe('Es9vMFrzaCERmJfrF8H2TRSAP1KYzWfnSxYV3Ac1c3Pn');
    // Configuration's syntax (lib/config/solana) agrees with the codec, leading zero bytes included.
    expect(solanaEnvAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toBe(CHAIN_SPECS.SOLANA.tokens.USDC!.mainnet);
    expect(solanaEnvAddress('11111111111111111111111111111112')).toBe(`0x${'00'.repeat(31)}01`);
    expect(solanaEnvAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
  });

  it('gives each invoice index its own deposit owner: the SLIP-0010 key of solanaDepositOwner, in the stored form', async () => {
    const ops = FAMILIES.solana;
    for (const index of [0, 1, 7, 123_456]) {
      const stored = ops.depositAddress(DEV_MNEMONIC, index);
      expect(stored).toBe((await solanaDepositOwner(DEV_MNEMONIC, index)).address);
      expect(ops.payerAddress(stored)).toBe(stored);
    }
    expect(ops.pooledAddresses).toBe(false);
    // A Solana Pay transfer request (the spec's example: `solana:<recipient>?amount=1&spl-token=EPjF…`): whole tokens,
    // never an exponent, the mint in Base58.
    const to = ops.depositAddress(DEV_MNEMONIC, 0);
    const uri = (units: bigint) => ops.paymentUri({ token: net.tokenAddress!, chainId: net.chainId, to, units, decimals: 6 });
    expect(uri(12_500_000n)).toBe(`solana:${to}?amount=12.5&spl-token=${net.tokenAddress}`);
    expect(uri(1n)).toBe(`solana:${to}?amount=0.000001&spl-token=${net.tokenAddress}`);
    expect(uri(100_000_000n)).toBe(`solana:${to}?amount=100&spl-token=${net.tokenAddress}`);
    expect(net.tokenAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  it('reads the head slot and checks the mints (SPL Token mint, decimals) on the node', async () => {
    node.advance(3);
    expect(await FAMILIES.solana.readHead(net, 5_000)).toBeGreaterThanOrEqual(2);
    expect(await FAMILIES.solana.checkRail(net)).toEqual([]);
    const wrong = { ...net, tokens: [{ asset: 'USDC' as const, address: net.tokens![0]!.address, decimals: 18 }] };
    expect(await FAMILIES.solana.checkRail(wrong)).toEqual([
      expect.objectContaining({
        chain: 'SOLANA',
        token: 'USDC',
        variable: 'TEST_SOLANA_USDC_ADDRESS',
        message: expect.stringMatching(/6 decimals, expected 18/),
      }),
    ]);
    const notMint = { ...net, tokens: [{ asset: 'USDT' as const, address: codec.parse(node.keys.gas.address), decimals: 6 }] };
    expect((await FAMILIES.solana.checkRail(notMint))[0]?.message).toMatch(/not an SPL Token mint/);
    const stopped = { ...net, rpcUrl: 'http://127.0.0.1:1' };
    await expect(FAMILIES.solana.checkRail(stopped)).rejects.toThrow(/TEST_SOLANA_RPC_URL: the rail check could not read the genesis hash/);
  });

  it("refuses a node of another cluster than the chain id's by its genesis hash, and stops the network's rails", async () => {
    expect(await rpcCall(node.url, 'getGenesisHash')).toBe(SOLANA_DEV.genesisHash);
    // Production's test mode (devnet, 103) pointed at the stand-in, and development's chain id at a devnet node.
    const devnet = { ...net, chainId: CHAIN_SPECS.SOLANA.chainId.test };
    const lying = await faultySolanaNode(node.url, { getGenesisHash: { result: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' } });
    try {
      for (const [n, message] of [
        [devnet, /the node at TEST_SOLANA_RPC_URL serves the stand-in \(genesis 9Luct\w+\), not devnet \(genesis EtWT\w+\)/],
        [
          { ...net, rpcUrl: lying.url },
          /serves devnet \(genesis EtWT\w+\), not the stand-in .* chain id 31397 stands for; every SOLANA rail of this mode is stopped/,
        ],
      ] as const) {
        expect(await FAMILIES.solana.checkRail(n)).toEqual([
          { mode: 'test', chain: 'SOLANA', variable: 'TEST_SOLANA_RPC_URL', message: expect.stringMatching(message) },
        ]);
        expect(withoutStoppedRails(n), 'every rail of the network stopped').toBeUndefined();
        clearRailVerdicts();
      }
      // A chain id the table does not know (a test's own) is not compared; its mints still are.
      expect(await FAMILIES.solana.checkRail({ ...net, chainId: 90_001, rpcUrl: lying.url })).toEqual([]);
    } finally {
      clearRailVerdicts();
      await lying.stop();
    }
  });

  it('refuses what is not built with UnsupportedOnRailError, never an answer', async () => {
    const err = await FAMILIES.solana
      .readFreezeList({ ...net, tokenAddress: net.tokenAddress! }, 'isBlacklisted', codec.parse(node.keys.other.address))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedOnRailError);
    expect(err).toMatchObject({ code: 'not_supported_on_rail', chain: 'SOLANA' });
  });

  it("tells a Solana address apart in forms, and names it on another family's network", () => {
    expect(addressFamilyOf(node.keys.gas.address)).toBe('solana');
    expect(addressProblem('SOLANA', node.keys.gas.address)).toBeNull();
    expect(addressProblem('BSC', node.keys.gas.address)).toMatch(/is a Solana \(Base58\) address; BNB Smart Chain takes EVM/);
    expect(addressProblem('SOLANA', '0x0000000000000000000000000000000000000001')).toMatch(/EVM/);
  });
});
