import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSigner } from '@solana/kit';
import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { faultySolanaNode, solanaPayer } from '@/lib/testing/solana-payer';
import { readDeposits } from './read-deposits';
import { SolanaRpcError, solanaRpc } from './rpc';

/**
 * Issue 49: payments into a per-invoice owner's associated token account, detected at `confirmed` and final at
 * `finalized`, judged from outside: the payer's transactions are built and signed by @solana/kit and
 * @solana-program/token as a wallet would (lib/testing/solana-payer.ts), sent over JSON-RPC to the stand-in node.
 */
const FINALIZED_DEPTH = 4;
let node: SolanaNode;
let payer: ReturnType<typeof solanaPayer>;
const stops: (() => Promise<void>)[] = [];
beforeAll(async () => {
  node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  payer = solanaPayer(node);
});
afterAll(async () => {
  for (const stop of stops) await stop();
  await node?.stop();
});

const faulty = async (answers: Record<string, object>) => {
  const f = await faultySolanaNode(node.url, answers);
  stops.push(f.stop);
  return f.url;
};

describe('reading payments into a deposit owner’s associated token account', () => {
  it('detects an exact payment at confirmed, then reports it finalized, with the payer as sender', async () => {
    const rpc = solanaRpc(node.url);
    const owner = (await generateKeyPairSigner()).address;
    const wallet = await payer.funded('USDC', 100_000_000n);
    const signature = await payer.pay(wallet, owner, 'USDC', 25_000_000n);
    const read = () => readDeposits(rpc, { owner, mint: node.mints.USDC });

    // Processed only: not yet a payment anywhere.
    expect(await read()).toEqual({ tokenAccount: await payer.ata(owner, node.mints.USDC), deposits: [] });
    node.advance(1);
    expect((await read()).deposits).toEqual([
      expect.objectContaining({ signature, amount: 25_000_000n, status: 'detected', senders: [wallet.address] }),
    ]);
    node.advance(FINALIZED_DEPTH - 1);
    expect((await read()).deposits).toEqual([expect.objectContaining({ signature, amount: 25_000_000n, status: 'finalized' })]);
  });

  it('reads each payment once, newest first, down to a cursor; another token is read at its own account', async () => {
    const rpc = solanaRpc(node.url);
    const owner = (await generateKeyPairSigner()).address;
    const wallet = await payer.funded('USDC', 10_000_000n);
    const first = await payer.pay(wallet, owner, 'USDC', 1_000_000n);
    const second = await payer.pay(wallet, owner, 'USDC', 2_500_000n);
    const wrong = await payer.pay(await payer.funded('USDT', 5_000_000n), owner, 'USDT', 5_000_000n);
    node.advance(FINALIZED_DEPTH);
    const usdc = await readDeposits(rpc, { owner, mint: node.mints.USDC });
    expect(usdc.deposits.map((d) => [d.signature, d.amount, d.status])).toEqual([
      [second, 2_500_000n, 'finalized'],
      [first, 1_000_000n, 'finalized'],
    ]);
    expect((await readDeposits(rpc, { owner, mint: node.mints.USDC, until: second })).deposits).toEqual([]);
    expect((await readDeposits(rpc, { owner, mint: node.mints.USDC, until: first })).deposits.map((d) => d.signature)).toEqual([second]);
    // A USDT payment to the same owner lands at its USDT account: found by reading that mint (held as a wrong token).
    expect((await readDeposits(rpc, { owner, mint: node.mints.USDT })).deposits).toEqual([
      expect.objectContaining({ signature: wrong, amount: 5_000_000n }),
    ]);
  });

  it('reads a plain transfer (no ATA creation, unchecked Transfer) into an existing account, as exchanges send', async () => {
    const rpc = solanaRpc(node.url);
    const owner = (await generateKeyPairSigner()).address;
    await payer.pay(await payer.funded('USDC', 1_000_000n), owner, 'USDC', 1_000_000n);
    const exchange = await payer.funded('USDC', 9_000_000n);
    const signature = await payer.transfer(exchange, owner, 'USDC', 9_000_000n);
    node.advance(FINALIZED_DEPTH);
    expect((await readDeposits(rpc, { owner, mint: node.mints.USDC })).deposits[0]).toMatchObject({
      signature,
      amount: 9_000_000n,
      status: 'finalized',
      senders: [exchange.address],
    });
  });

  it('throws on a failed read, never answers "no payment"', async () => {
    const owner = (await generateKeyPairSigner()).address;
    await payer.pay(await payer.funded('USDC', 3_000_000n), owner, 'USDC', 3_000_000n);
    node.advance(FINALIZED_DEPTH);
    const read = (url: string) => readDeposits(solanaRpc(url, { timeoutMs: 2000 }), { owner, mint: node.mints.USDC });
    await expect(read(node.url)).resolves.toMatchObject({ deposits: [expect.objectContaining({ amount: 3_000_000n })] });

    const behind = await faulty({ getSignaturesForAddress: { error: { code: -32005, message: 'Node is behind by 42 slots' } } });
    await expect(read(behind)).rejects.toThrow(SolanaRpcError);
    await expect(read(behind)).rejects.toMatchObject({ code: -32005 });
    await expect(read(await faulty({ getSignaturesForAddress: { result: [{ signature: 'not a signature' }] } }))).rejects.toThrow(
      /unexpected result/,
    );
    await expect(read(await faulty({ getSignaturesForAddress: { result: null } }))).rejects.toThrow(/unexpected result/);
    // Listed at confirmed, then not readable: the node is inconsistent, which is no answer.
    await expect(read(await faulty({ getTransaction: { result: null } }))).rejects.toThrow(/listed .* but not readable/);
    await expect(read(await faulty({ getTransaction: { error: { code: -32603, message: 'Internal error' } } }))).rejects.toMatchObject({
      method: 'getTransaction',
      code: -32603,
    });
    await expect(read('http://127.0.0.1:9')).rejects.toThrow(/no answer/);
  });
});
