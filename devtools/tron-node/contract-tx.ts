import { toEvm } from './address';
import type { Rpc } from './anvil-process';
import type { DeployedContract, TxRecord } from './chain';
import { checkDeploy, runDeploy } from './deploy';
import type { Account, Ledger } from './ledger';
import { runTrigger } from './trigger';

interface Engine {
  rpc: Rpc;
  ledger: Ledger;
  contracts: Map<string, DeployedContract>;
  register(c: DeployedContract): void;
}

type Contract = TxRecord['tx']['raw_data']['contract'][number];

/** The dynamic energy factor of the contract at an engine address (0x…); 0 for one the stand-in does not know. */
export const factorOf = (contracts: Map<string, DeployedContract>) => (evm: string) =>
  contracts.get(`41${evm.slice(2).toLowerCase()}`)?.energyFactor ?? 0;

function nonZero(o: Record<string, number>) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== 0));
}

/**
 * Applies a TriggerSmartContract or CreateSmartContract to `record` (already charged its bandwidth): energy from the
 * contract owner's share, the caller's stake and burned TRX, the receipt fields java-tron writes, and the effects.
 */
export async function applyContractTx(e: Engine, record: TxRecord, c: Contract, owner: string, acc: Account, ts: number) {
  const v = c.parameter.value;
  const feeLimit = BigInt(record.tx.raw_data.fee_limit ?? 0);
  const receipt = record.receipt;
  if (c.type === 'CreateSmartContract') {
    const { contract, address } = checkDeploy(e.ledger, v, owner, record.tx.txID, Number(feeLimit));
    const out = await runDeploy(e.rpc, e.ledger, acc, { owner, address, contract, feeLimit }, factorOf(e.contracts), ts);
    Object.assign(receipt, nonZero({ energy_usage: out.energyFromStake, energy_fee: Number(out.energyFee), energy_usage_total: out.energyTotal }));
    receipt.result = out.ret;
    Object.assign(record, { ret: out.ret, fee: record.fee + out.energyFee, contractResult: out.code, contractAddress: address, log: out.log });
    if (out.ret === 'SUCCESS') {
      e.ledger.create(address, ts);
      // A new contract starts at energy factor 0 (ContractStateCapsule); the stand-in never raises it.
      e.register({ address, ...contract, origin: owner, energyFactor: 0 });
    }
    return;
  }
  const contract = e.contracts.get(String(v.contract_address).toLowerCase())!;
  const call = { from: toEvm(owner), to: toEvm(contract.address), data: `0x${String(v.data ?? '')}`, feeLimit };
  const origin = {
    acc: e.ledger.get(contract.origin),
    isCaller: contract.origin === owner,
    userPercent: contract.userPercent,
    originEnergyLimit: contract.originEnergyLimit,
  };
  const out = await runTrigger(e.rpc, e.ledger, acc, call, origin, factorOf(e.contracts), ts);
  Object.assign(
    receipt,
    nonZero({
      energy_usage: out.energyFromStake,
      energy_fee: Number(out.energyFee),
      origin_energy_usage: out.originEnergy,
      energy_usage_total: out.energyTotal,
      energy_penalty_total: out.penalty,
    }),
  );
  receipt.result = out.ret;
  Object.assign(record, {
    ret: out.ret,
    fee: record.fee + out.energyFee,
    contractResult: out.result,
    contractAddress: contract.address,
    evmHash: out.evmHash,
  });
}
