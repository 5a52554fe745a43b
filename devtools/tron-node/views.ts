import type { StandInChain, TronBlock, TxRecord } from './chain';
import type { Ledger } from './ledger';

/** JSON shapes of java-tron's HTTP API (visible=false), as in documentation-en's response examples. */
const WITNESS = '41b2f713d57dbcec679d93a8849fa0cd0e4db594ba';

export function txView(r: TxRecord) {
  const { txID, raw_data, raw_data_hex, signature } = r.tx;
  return { ret: [{ contractRet: r.ret }], signature, txID, raw_data, raw_data_hex };
}

export function blockView(chain: StandInChain, b: TronBlock, detail: boolean) {
  const out: Record<string, unknown> = {
    blockID: b.id,
    block_header: {
      raw_data: { number: b.number, txTrieRoot: b.txTrieRoot, witness_address: WITNESS, parentHash: b.parentId, version: 32, timestamp: b.timestamp },
      witness_signature: '00'.repeat(65),
    },
  };
  if (detail && b.txIds.length) out.transactions = b.txIds.map((id) => txView(chain.txs.get(id)!));
  return out;
}

export function txInfoView(chain: StandInChain, r: TxRecord) {
  const block = chain.blocks[r.blockNumber]!;
  const out: Record<string, unknown> = { id: r.tx.txID };
  if (r.fee > 0n) out.fee = Number(r.fee);
  Object.assign(out, { blockNumber: r.blockNumber, blockTimeStamp: block.timestamp });
  if (r.contractResult !== undefined) out.contractResult = [r.contractResult];
  if (r.contractAddress) out.contract_address = r.contractAddress;
  out.receipt = r.receipt;
  if (r.log.length) out.log = r.log;
  if (r.ret !== 'SUCCESS') {
    out.result = 'FAILED';
    out.resMessage = Buffer.from(r.ret === 'REVERT' ? 'REVERT opcode executed' : 'Not enough energy').toString('hex');
  }
  return out;
}

/** /wallet/getaccount: `{}` for an account that does not exist (not activated). */
export function accountView(ledger: Ledger, addr: string) {
  const a = ledger.get(addr);
  if (!a) return {};
  const out: Record<string, unknown> = { address: addr, create_time: a.createTime };
  if (a.balance > 0n) out.balance = Number(a.balance);
  if (a.netUsage) Object.assign(out, { net_usage: a.netUsage, latest_consume_time: a.netTime });
  if (a.freeNetUsage) Object.assign(out, { free_net_usage: a.freeNetUsage, latest_consume_free_time: a.freeNetTime });
  out.frozenV2 = [
    { amount: Number(a.frozen.BANDWIDTH) || undefined },
    { type: 'ENERGY', amount: Number(a.frozen.ENERGY) || undefined },
    { type: 'TRON_POWER' },
  ];
  if (a.delegatedOut.BANDWIDTH) out.delegated_frozenV2_balance_for_bandwidth = Number(a.delegatedOut.BANDWIDTH);
  if (a.acquired.BANDWIDTH) out.acquired_delegated_frozenV2_balance_for_bandwidth = Number(a.acquired.BANDWIDTH);
  const res: Record<string, number> = {};
  if (a.energyUsage) Object.assign(res, { energy_usage: a.energyUsage, latest_consume_time_for_energy: a.energyTime });
  if (a.delegatedOut.ENERGY) res.delegated_frozenV2_balance_for_energy = Number(a.delegatedOut.ENERGY);
  if (a.acquired.ENERGY) res.acquired_delegated_frozenV2_balance_for_energy = Number(a.acquired.ENERGY);
  out.account_resource = res;
  return out;
}

/** /wallet/getaccountresource: absent fields mean 0, as on java-tron. */
export function resourceView(ledger: Ledger, addr: string, now: number) {
  const a = ledger.get(addr);
  const p = ledger.params;
  const out: Record<string, number> = { freeNetLimit: p.freeNetLimit, TotalNetLimit: p.totalNetLimit, TotalEnergyLimit: p.totalEnergyLimit };
  if (!a) return {};
  const put = (k: string, v: number) => v && (out[k] = v);
  put('freeNetUsed', ledger.recovered(a.freeNetUsage, a.freeNetTime, now));
  put('NetUsed', ledger.recovered(a.netUsage, a.netTime, now));
  put('NetLimit', ledger.limit(a, 'BANDWIDTH'));
  put('EnergyUsed', ledger.recovered(a.energyUsage, a.energyTime, now));
  put('EnergyLimit', ledger.limit(a, 'ENERGY'));
  let energyWeight = p.networkEnergyWeight;
  let netWeight = p.networkNetWeight;
  for (const x of ledger.accounts.values()) {
    energyWeight += Number(x.frozen.ENERGY / 1_000_000n);
    netWeight += Number(x.frozen.BANDWIDTH / 1_000_000n);
  }
  Object.assign(out, { TotalEnergyWeight: energyWeight, TotalNetWeight: netWeight });
  return out;
}

/** java-tron's JSON-RPC block (eth_getBlockByNumber): TRON ids as hashes, seconds as timestamps. */
export function rpcBlockView(b: TronBlock) {
  return {
    number: hex(b.number),
    hash: `0x${b.id}`,
    parentHash: `0x${b.parentId}`,
    timestamp: hex(Math.floor(b.timestamp / 1000)),
    transactions: b.txIds.map((id) => `0x${id}`),
    miner: `0x${WITNESS.slice(2)}`,
    gasLimit: '0x0',
    gasUsed: '0x0',
    stateRoot: '0x',
  };
}

export const hex = (n: number) => `0x${n.toString(16)}`;
