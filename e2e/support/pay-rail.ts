import { expect } from '@playwright/test';
import { TronWeb } from 'tronweb';
import { createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { familyOf, type Asset, type ChainKey } from '@/lib/config/rails';
import { E2E_EVM_CHAINS, STACK_KEYS, TRON_KEYS, TRON_PORT, TRON_USDT_ADDRESS } from './stack-env';

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

/** Pays `amount` of a rail's token to a deposit address from the stack's faucet on that network. */
export const payOnRail = (chain: ChainKey, asset: Asset, to: string, amount: string) =>
  familyOf(chain) === 'tron' ? payOnTron(to, amount) : payOnEvm(chain, asset, to, amount);
