import { afterAll, beforeAll, expect, it } from 'vitest';
import { utils } from 'tronweb';
import collector from '@/lib/chain/evm/collector/collector.json' with { type: 'json' };
import { startTronNode, type TronNode } from './tron-node';

/** A deployment replaced by a reorg: left out, the contract is gone; re-packed, it is back at the same address. */
let node: TronNode;
beforeAll(async () => {
  node = await startTronNode({ reorgs: true });
});
afterAll(async () => {
  await node?.stop();
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${node.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as T;
}

it('forgets a deployment a reorg leaves out, and deploys it again when the new branch packs it', async () => {
  const a = utils.accounts.generateAccount();
  await node.sendTrx(a.address.base58, 2_000_000_000);
  const tw = node.tronWeb(a.privateKey);
  const deploy = async () => {
    const tx = await tw.transactionBuilder.createSmartContract(
      {
        abi: collector.abi as never,
        bytecode: collector.bytecode.slice(2),
        feeLimit: 1_000_000_000,
        parameters: [a.address.base58, a.address.base58],
      },
      a.address.base58,
    );
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(tx))).result).toBe(true);
    return { txId: tx.txID, address: (tx as unknown as { contract_address: string }).contract_address };
  };
  const code = async (addr: string) => node.chain.rpc<string>('eth_getCode', [`0x${addr.slice(2)}`, 'latest']);

  const left = await deploy();
  expect(await post('/wallet/getcontract', { value: left.address })).toHaveProperty('contract_address', left.address);
  await node.reorg(1, { drop: [left.txId] });
  await node.mine(1);
  expect(await post('/wallet/getcontract', { value: left.address })).toEqual({});
  expect(await code(left.address)).toBe('0x');

  const kept = await deploy();
  await node.reorg(1);
  await node.mine(1);
  expect(await post('/wallet/getcontract', { value: kept.address })).toHaveProperty('contract_address', kept.address);
  expect((await code(kept.address)).length).toBeGreaterThan(1_000);
  expect(await post<{ receipt: { result: string } }>('/wallet/gettransactioninfobyid', { value: kept.txId })).toHaveProperty(
    'receipt.result',
    'SUCCESS',
  );
});
