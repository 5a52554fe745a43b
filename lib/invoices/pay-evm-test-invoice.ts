import { erc20Abi, getAddress, parseUnits } from 'viem';
import type { ReadyNetwork } from '@/lib/chain/network';
import { walletClient } from '@/lib/chain/wallet-client';

// The faucet sends one transaction at a time per process so concurrent calls never pick the same nonce.
let queue: Promise<unknown> = Promise.resolve();

/** The test helper's payment on an EVM network: the faucet's ERC-20 transfer to the deposit address, answered once broadcast. */
export async function payEvmTestInvoice(
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'faucetKey'>,
  depositAddress: string,
  amount: string,
): Promise<{ txHash: string; from: string; to: string }> {
  const faucet = walletClient(net.rpcUrl, net.chainId, net.faucetKey);
  const to = getAddress(depositAddress);
  const send = () =>
    faucet.writeContract({ address: net.tokenAddress, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(amount, net.decimals)] });
  const result = queue.then(send, send);
  queue = result.catch(() => {});
  const txHash = await result;
  return { txHash, from: faucet.account.address, to };
}
