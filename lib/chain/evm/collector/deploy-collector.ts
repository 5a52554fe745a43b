import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import artifact from './collector.json' with { type: 'json' };
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/** The collector's ABI (lib/chain/evm/collector/SubscriptionCollector.sol). */
export const COLLECTOR_ABI = artifact.abi as Abi;

/**
 * Deploys the subscription collector on an EVM network with its admin (allows the gateway's deposit addresses, can
 * replace the operator) and its operator (pulls). The operator step of docs/subscriptions.md; dev stack and tests
 * (lib/testing/anvil.ts).
 */
export async function deployCollector(p: { rpcUrl: string; chainId: number; deployerKey: Hex; admin: Address; operator: Address }): Promise<Address> {
  const chain = {
    id: p.chainId,
    name: 'evm',
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [p.rpcUrl] } },
  } as const;
  const transport = http(p.rpcUrl);
  const client = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 });
  const deployer = createWalletClient({ chain, transport, account: privateKeyToAccount(p.deployerKey) });
  const hash = await deployer.deployContract({ abi: COLLECTOR_ABI, bytecode: artifact.bytecode as Hex, args: [p.admin, p.operator] });
  const created = (await client.waitForTransactionReceipt({ hash })).contractAddress;
  if (!created) throw new Error('the subscription collector was not created');
  return EVM_ADDRESS_CODEC.parse(created);
}
