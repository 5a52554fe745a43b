import {
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { parseUnits } from 'viem';
import type { ReadyNetwork, SolanaNetwork } from '@/lib/chain/network';
import { associatedTokenAccount } from '@/lib/chain/solana/associated-token-account';
import { broadcastSolanaTransaction } from '@/lib/chain/solana/broadcast-transaction';
import { solanaRpc } from '@/lib/chain/solana/rpc';

/**
 * The test helper's payment on Solana: the faucet wallet (the network's `faucetKey`, an ed25519 seed) pays the invoice's
 * owner as a wallet does: creates the owner's associated token account when missing (the faucet pays its rent, as a
 * payer's wallet would) and `transferChecked` from its own. The watcher finds it like any customer's payment. Answers
 * once the node accepted it; a test payment is not tracked further (the caller may pay again).
 */
export async function paySolanaTestInvoice(
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'faucetKey', SolanaNetwork>,
  depositAddress: string,
  amount: string,
): Promise<{ txHash: string; from: string; to: string }> {
  const rpc = solanaRpc(net.rpcUrl, { timeoutMs: 10_000 });
  const faucet = await createKeyPairSignerFromPrivateKeyBytes(Buffer.from(net.faucetKey.slice(2), 'hex'));
  const mint = net.tokenAddress as string as Address;
  const owner = depositAddress as Address;
  const [source, destination] = [await associatedTokenAccount(faucet.address, mint), await associatedTokenAccount(owner, mint)];
  const { value: life } = await rpc.call('getLatestBlockhash', [{ commitment: 'confirmed' }]);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(faucet, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: life.blockhash as never, lastValidBlockHeight: BigInt(life.lastValidBlockHeight) }, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer: faucet, ata: destination, owner, mint }),
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority: faucet,
            amount: parseUnits(amount, net.decimals),
            decimals: net.decimals,
          }),
        ],
        m,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = await broadcastSolanaTransaction(rpc, {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
  });
  return { txHash: signature, from: faucet.address, to: depositAddress };
}
