import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, getInitializeAccount3Instruction } from '@solana-program/token';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { SolanaAddressError, isSolanaAddress, parseSolanaAddress, solanaAddressBytes } from './address';
import { associatedTokenAccount } from './associated-token-account';
import { judgeSolanaDestination, type SolanaAccountInfo } from './destination-rule';
import { SOLANA_RPC_RESULTS } from './rpc-schemas';

// Mainnet's USDC mint and Circle's well-known examples: real keys of the right shape.
const USDC_MAINNET = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('the Solana address codec', () => {
  it('accepts Base58 32-byte keys as typed (the stored form is the same text)', () => {
    expect(parseSolanaAddress(` ${USDC_MAINNET} `)).toBe(USDC_MAINNET);
    expect(parseSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    expect(solanaAddressBytes(USDC_MAINNET)).toMatch(/^[0-9a-f]{64}$/);
    expect(isSolanaAddress('11111111111111111111111111111111')).toBe(true);
  });

  it.each([
    ['an EVM address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'evm_address'],
    ['a TRON address (25 bytes)', 'TNhWvctD24Ju9C8qpp9T9bQpGPPw5gjA96', 'invalid_solana_address'],
    [
      'a transaction signature (64 bytes)',
      '5h6xBEauJ3PK6SWCZ1PGjBvj8vDdWG3KpwATGy1ARAXFSDwt8GFXM7W5Ncn16wmqokgpiKRLuS83KUxyZyv2sUYv',
      'invalid_solana_address',
    ],
    ['a key with a non-Base58 letter (0, O, I, l)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10', 'invalid_solana_address'],
    ['a key cut short (31 characters)', USDC_MAINNET.slice(0, 31), 'invalid_solana_address'],
    ['a key with letters added (45 characters)', `${USDC_MAINNET}z`, 'invalid_solana_address'],
    ['the System Program', '11111111111111111111111111111111', 'system_program'],
  ])('refuses %s', (_what, raw, code) => {
    expect(() => parseSolanaAddress(raw)).toThrow(SolanaAddressError);
    expect(() => parseSolanaAddress(raw)).toThrow(expect.objectContaining({ code }));
  });

  it('has no checksum: one letter dropped can still be a valid key, of nobody (why destinations are looked up on chain)', () => {
    expect(isSolanaAddress(USDC_MAINNET.slice(0, -1))).toBe(true);
  });

  it('is case-sensitive: another letter case is another key or none', () => {
    const flipped = USDC_MAINNET.replace('EPj', 'ePj');
    expect(isSolanaAddress(flipped) ? parseSolanaAddress(flipped) : null).not.toBe(USDC_MAINNET);
  });
});

describe('the destination rule against real SPL Token accounts (the stand-in node)', () => {
  let node: SolanaNode;
  beforeAll(async () => {
    node = await startSolanaNode({ finalizedDepth: 2 });
  });
  afterAll(async () => {
    await node?.stop();
  });

  /** getAccountInfo over HTTP, base64, as the adapter will read it. */
  async function accountInfo(address: string): Promise<SolanaAccountInfo> {
    const res = await fetch(node.url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [address, { encoding: 'base64', commitment: 'confirmed' }] }),
    });
    const v = SOLANA_RPC_RESULTS.getAccountInfo.parse(((await res.json()) as { result: unknown }).result).value;
    if (!v) return null;
    const data = Array.isArray(v.data) ? new Uint8Array(Buffer.from(v.data[0], 'base64')) : new Uint8Array();
    return { owner: v.owner, data, executable: v.executable };
  }
  // Two slots, so what the last transaction wrote is visible at `confirmed`.
  const judge = async (address: string, mint: Address) => {
    node.advance(2);
    return judgeSolanaDestination(address, mint, await accountInfo(address));
  };

  it("pays a wallet at its associated token account, and accepts that ATA itself, never another of the owner's token accounts", async () => {
    const usdc = node.mints.USDC;
    const wallet = (await generateKeyPairSigner()).address;
    await node.mintTo('USDC', wallet, 1_000_000n);
    const ata = await associatedTokenAccount(wallet, usdc);

    expect(await judge(wallet, usdc)).toEqual({ ok: true, owner: wallet, tokenAccount: ata, tokenAccountGiven: false });
    expect(await judge(ata, usdc)).toEqual({ ok: true, owner: wallet, tokenAccount: ata, tokenAccountGiven: true });

    // A second USDC account of the same owner at a random address (what some exchanges and programs create).
    const other = await generateKeyPairSigner();
    const rent = 2_039_280n;
    const { blockhash, blockHeight } = node.chain.head;
    const msg = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(node.keys.gas, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: BigInt(blockHeight + 150) }, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getCreateAccountInstruction({
              payer: node.keys.gas,
              newAccount: other,
              lamports: rent,
              space: 165,
              programAddress: TOKEN_PROGRAM_ADDRESS,
            }),
            getInitializeAccount3Instruction({ account: other.address, mint: usdc, owner: wallet }),
          ],
          m,
        ),
    );
    node.chain.send(new Uint8Array(Buffer.from(getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(msg)), 'base64')));
    const refused = await judge(other.address, usdc);
    expect(refused).toMatchObject({ ok: false, code: 'not_associated_token_account' });
    expect(refused.ok === false && refused.reason).toContain(wallet);
  });

  it('refuses a token account of another mint, a mint, a program and a frozen ATA, with reasons', async () => {
    const usdc = node.mints.USDC;
    const wallet = (await generateKeyPairSigner()).address;
    await node.mintTo('USDT', wallet, 5n);
    expect(await judge(await associatedTokenAccount(wallet, node.mints.USDT), usdc)).toMatchObject({ ok: false, code: 'token_account_other_mint' });
    expect(await judge(usdc, usdc)).toMatchObject({ ok: false, code: 'mint_account' });
    expect(await judge(TOKEN_PROGRAM_ADDRESS, usdc)).toMatchObject({ ok: false, code: 'program_account' });

    await node.mintTo('USDC', wallet, 5n);
    const ata = await associatedTokenAccount(wallet, usdc);
    await node.freeze('USDC', ata);
    expect(await judge(ata, usdc)).toMatchObject({ ok: false, code: 'token_account_frozen' });
  });

  it('accepts a never-used wallet key, refuses a never-used program-derived address, and refuses what is not an address', async () => {
    const usdc = node.mints.USDC;
    const fresh = (await generateKeyPairSigner()).address;
    expect(await judge(fresh, usdc)).toMatchObject({ ok: true, owner: fresh, tokenAccountGiven: false });
    // The ATA of a fresh wallet does not exist yet: off the curve, no key can spend from it directly.
    expect(await judge(await associatedTokenAccount(fresh, usdc), usdc)).toMatchObject({ ok: false, code: 'off_curve_unknown' });
    expect(await judgeSolanaDestination('TNhWvctD24Ju9C8qpp9T9bQpGPPw5gjA96', usdc, null)).toMatchObject({ ok: false, code: 'invalid_address' });
  });
});
