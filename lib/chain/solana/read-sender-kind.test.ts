import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSigner } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { solanaPayer } from '@/lib/testing/solana-payer';
import { readSolanaSenderKind } from './read-sender-kind';
import { SolanaRpcError, solanaRpc } from './rpc';

/**
 * The sender check of a Solana send-back (lib/destinations/check-sender.ts): a payment's sender that is a person's
 * wallet is sent back to; a program, an account a program owns or a key-less derived address is a "contract", where
 * money sent back may not reach the payer. Read from the stand-in; a failed read throws, never "a wallet".
 */
let node: SolanaNode;
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: 4 });
});
afterAll(async () => {
  await node?.stop();
});

describe('readSolanaSenderKind', () => {
  it('a wallet (funded or never used) is none; a program, a token account and an unused derived address are contracts', async () => {
    const rpc = solanaRpc(node.url);
    const payer = solanaPayer(node);
    const wallet = await payer.funded('USDC', 1_000_000n);
    node.advance(1);
    expect(await readSolanaSenderKind(rpc, wallet.address)).toBe('none');
    expect(await readSolanaSenderKind(rpc, (await generateKeyPairSigner()).address)).toBe('none');
    expect(await readSolanaSenderKind(rpc, TOKEN_PROGRAM_ADDRESS)).toBe('contract');
    expect(await readSolanaSenderKind(rpc, await payer.ata(wallet.address, node.mints.USDC))).toBe('contract');
    const unused = await payer.ata((await generateKeyPairSigner()).address, node.mints.USDC);
    expect(await readSolanaSenderKind(rpc, unused)).toBe('contract');
  });

  it('a node that does not answer throws', async () => {
    const err = await readSolanaSenderKind(solanaRpc('http://127.0.0.1:1'), node.keys.other.address).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SolanaRpcError);
  });
});
