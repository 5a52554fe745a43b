import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
} from '@solana-program/token';
import type { SolanaNode } from '@/devtools/solana-node/solana-node';

type Token = 'USDC' | 'USDT';

/**
 * A payer's wallet on the Solana stand-in, written with @solana/kit and @solana-program/token only (none of the
 * gateway's Solana code), so tests judge the gateway's reads and sweeps against transactions it did not build.
 */
export function solanaPayer(node: SolanaNode) {
  const kit = createSolanaRpc(devnet(node.url));
  const ata = async (owner: Address, mint: Address) => (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  return {
    kit,
    ata,
    /** A fresh wallet with 1 SOL (airdropped) and `units` of the token minted to its ATA. */
    async funded(token: Token, units: bigint): Promise<KeyPairSigner> {
      const payer = await generateKeyPairSigner();
      await kit.requestAirdrop(payer.address, lamports(1_000_000_000n)).send();
      await node.mintTo(token, payer.address, units);
      return payer;
    },
    /** Pays `owner` as Phantom or an exchange does: creates the owner's ATA when missing (idempotent) and transfers. */
    async pay(payer: KeyPairSigner, owner: Address, token: Token, amount: bigint): Promise<string> {
      const mint = node.mints[token];
      const [from, to] = [await ata(payer.address, mint), await ata(owner, mint)];
      const { value: life } = await kit.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getCreateAssociatedTokenIdempotentInstruction({ payer, ata: to, owner, mint }),
              getTransferCheckedInstruction({ source: from, mint, destination: to, authority: payer, amount, decimals: 6 }),
            ],
            m,
          ),
      );
      const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
      return kit.sendTransaction(wire, { encoding: 'base64' }).send();
    },
    /** A bare SPL `Transfer` (not Checked) into the owner's existing ATA, as some exchanges send. */
    async transfer(payer: KeyPairSigner, owner: Address, token: Token, amount: bigint): Promise<string> {
      const mint = node.mints[token];
      const [from, to] = [await ata(payer.address, mint), await ata(owner, mint)];
      const { value: life } = await kit.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
        (m) => appendTransactionMessageInstructions([getTransferInstruction({ source: from, destination: to, authority: payer, amount })], m),
      );
      const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
      return kit.sendTransaction(wire, { encoding: 'base64' }).send();
    },
  };
}

/**
 * A JSON-RPC server in front of the node that answers the named methods itself (`{ error }` or `{ result }`: a node
 * behind, a broken answer) and forwards the rest; an answer given as a function of the params answers only where
 * it returns one. `stop` closes it.
 */
export async function faultySolanaNode(
  upstream: string,
  answers: Record<string, object | ((params: unknown[]) => object | undefined)>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
      const given = answers[r.method];
      const answer = typeof given === 'function' ? given(r.params ?? []) : given;
      const reply = answer
        ? Promise.resolve(JSON.stringify({ jsonrpc: '2.0', id: r.id, ...answer }))
        : fetch(upstream, { method: 'POST', body }).then((u) => u.text());
      void reply.then((text) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    },
  };
}
