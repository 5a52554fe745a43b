import { expect } from '@playwright/test';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import { TronWeb } from 'tronweb';
import { createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { familyOf, type Asset, type ChainKey } from '@/lib/config/rails';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { E2E_EVM_CHAINS, SOLANA_PORT, STACK_KEYS, TRON_KEYS, TRON_PORT, TRON_USDT_ADDRESS } from './stack-env';

/**
 * USDT (TRC-20) sent from the stack's TRON faucet (the stand-in's `other` account) as a payer's wallet would:
 * a TronWeb-built TriggerSmartContract, signed and broadcast to the stand-in. Resolves with the txID.
 */
export async function payOnTron(to: string, amount: string): Promise<string> {
  const tw = new TronWeb({ fullHost: `http://127.0.0.1:${TRON_PORT}`, privateKey: TRON_KEYS.faucet.slice(2) });
  const from = tw.address.fromPrivateKey(TRON_KEYS.faucet.slice(2)) as string;
  const usdt = tw.address.fromHex(`41${TRON_USDT_ADDRESS.slice(2)}`);
  const { transaction } = await tw.transactionBuilder.triggerSmartContract(
    usdt,
    'transfer(address,uint256)',
    { feeLimit: 100_000_000 },
    [
      { type: 'address', value: to },
      { type: 'uint256', value: parseUnits(amount, 6).toString() },
    ],
    from,
  );
  const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
  expect(res.result, JSON.stringify(res)).toBe(true);
  return res.transaction.txID;
}

/** A token transfer from the faucet of an EVM network's anvil, at the token's decimals there. */
export async function payOnEvm(chain: ChainKey, asset: Asset, to: string, amount: string) {
  const c = E2E_EVM_CHAINS.find((x) => x.chain === chain)!;
  const token = c.tokens.find((t) => t.asset === asset)!;
  const wallet = createWalletClient({
    chain: {
      id: c.chainId,
      name: chain,
      nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${c.port}`] } },
    },
    account: privateKeyToAccount(STACK_KEYS.faucet),
    transport: http(`http://127.0.0.1:${c.port}`),
  });
  return wallet.writeContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [getAddress(to), parseUnits(amount, token.decimals)],
  });
}

const bytes = (hex: string) => new Uint8Array(Buffer.from(hex.slice(2), 'hex'));

/**
 * USDC or USDT sent from the Solana stand-in's faucet as Phantom or an exchange pays a wallet: @solana/kit and
 * @solana-program/token only (none of the gateway's Solana code), creating the owner's ATA when missing
 * (idempotent) and `transferChecked` into it. Resolves with the signature.
 */
export async function payOnSolana(asset: Asset, to: string, amount: string): Promise<string> {
  const rpc = createSolanaRpc(`http://127.0.0.1:${SOLANA_PORT}`);
  const payer = await createKeyPairSignerFromPrivateKeyBytes(bytes(SOLANA_DEV.faucetKey));
  const mint = getAddressDecoder().decode(bytes(SOLANA_DEV.mints[asset]));
  const owner = address(to);
  const ata = async (o: typeof owner) => (await findAssociatedTokenPda({ owner: o, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const [source, destination] = [await ata(payer.address), await ata(owner)];
  const { value: life } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner, mint }),
          getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: parseUnits(amount, 6), decimals: 6 }),
        ],
        m,
      ),
  );
  const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
  return rpc.sendTransaction(wire, { encoding: 'base64' }).send();
}

/** Pays `amount` of a rail's token to a deposit address from the stack's faucet on that network. */
export const payOnRail = (chain: ChainKey, asset: Asset, to: string, amount: string) =>
  ({ tron: () => payOnTron(to, amount), solana: () => payOnSolana(asset, to, amount), evm: () => payOnEvm(chain, asset, to, amount) })[
    familyOf(chain)
  ]();
