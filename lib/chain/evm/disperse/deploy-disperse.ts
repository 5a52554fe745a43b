import { createPublicClient, createWalletClient, erc20Abi, http, maxUint256, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import artifact from './disperse.json' with { type: 'json' };
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/**
 * Deploys the disperse contract on an EVM network and has the hot wallet approve it for each token (the one-time
 * step an operator takes per network, docs/payouts.md). The approval can only ever be spent by the hot wallet
 * itself: the contract pays from msg.sender. Dev stack, tests and benches (lib/testing/anvil.ts).
 */
export async function deployDisperse(p: {
  rpcUrl: string;
  chainId: number;
  deployerKey: Hex;
  hotWalletKey: Hex;
  tokens: Address[];
}): Promise<Address> {
  const chain = {
    id: p.chainId,
    name: 'evm',
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [p.rpcUrl] } },
  } as const;
  const transport = http(p.rpcUrl);
  const client = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 });
  const deployer = createWalletClient({ chain, transport, account: privateKeyToAccount(p.deployerKey) });
  const hash = await deployer.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex });
  const created = (await client.waitForTransactionReceipt({ hash })).contractAddress;
  if (!created) throw new Error('the disperse contract was not created');
  const address = EVM_ADDRESS_CODEC.parse(created);
  await approveDisperse({ ...p, disperse: address });
  return address;
}

/** The hot wallet approves the disperse contract for each token without limit (waits for each receipt). */
export async function approveDisperse(p: { rpcUrl: string; chainId: number; hotWalletKey: Hex; tokens: Address[]; disperse: Address }) {
  const chain = {
    id: p.chainId,
    name: 'evm',
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [p.rpcUrl] } },
  } as const;
  const transport = http(p.rpcUrl);
  const client = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 });
  const hot = createWalletClient({ chain, transport, account: privateKeyToAccount(p.hotWalletKey) });
  for (const token of p.tokens) {
    const tx = await hot.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [p.disperse, maxUint256] });
    await client.waitForTransactionReceipt({ hash: tx });
  }
}
