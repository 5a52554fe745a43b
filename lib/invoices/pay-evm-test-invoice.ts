import { erc20Abi, parseUnits } from 'viem';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import type { EvmNetwork, ReadyNetwork } from '@/lib/chain/network';
import { walletClient } from '@/lib/chain/wallet-client';

// The faucet sends one transaction at a time per process so concurrent calls never pick the same nonce.
let queue: Promise<unknown> = Promise.resolve();

/** The test helper's payment on an EVM network: the faucet's ERC-20 transfer to the deposit address, answered once broadcast. */
export async function payEvmTestInvoice(
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'faucetKey', EvmNetwork>,
  depositAddress: string,
  amount: string,
): Promise<{ txHash: string; from: string; to: string }> {
  const faucet = walletClient(net.rpcUrl, net.chainId, net.faucetKey);
  const to = EVM_ADDRESS_CODEC.parse(depositAddress);
  const send = () =>
    faucet.writeContract({ address: net.tokenAddress, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(amount, net.decimals)] });
  const result = queue.then(send, send);
  queue = result.catch(() => {});
  const txHash = await result;
  return { txHash, from: faucet.account.address, to };
}
