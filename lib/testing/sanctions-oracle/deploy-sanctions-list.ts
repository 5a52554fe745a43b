import type { Abi, Address, Hex } from 'viem';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import type { AnvilChain } from '@/lib/testing/anvil';
import artifact from './test-sanctions-list.json' with { type: 'json' };

const abi = artifact.abi as Abi;

/**
 * Deploys the sanctions oracle stand-in (TestSanctionsList.sol) on an anvil chain from its faucet, which owns it:
 * `list`/`unlist` change it as Chainalysis's owner does on the real one.
 */
export async function deploySanctionsList(chain: AnvilChain) {
  const hash = await chain.faucet.deployContract({ abi, bytecode: artifact.bytecode as Hex });
  const address = EVM_ADDRESS_CODEC.parse((await chain.client.waitForTransactionReceipt({ hash })).contractAddress!);
  const update = async (functionName: 'addToSanctionsList' | 'removeFromSanctionsList', addrs: Address[]) => {
    const tx = await chain.faucet.writeContract({ address, abi, functionName, args: [addrs] });
    await chain.client.waitForTransactionReceipt({ hash: tx });
  };
  return {
    address,
    list: (...addrs: Address[]) => update('addToSanctionsList', addrs),
    unlist: (...addrs: Address[]) => update('removeFromSanctionsList', addrs),
  };
}
