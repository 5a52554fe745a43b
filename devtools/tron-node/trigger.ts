import type { Rpc } from './anvil-process';
import { tvmEnergy, withFactor, type StructLog } from './energy';
import type { Account, Ledger } from './ledger';

export type ContractRet = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';

export interface TriggerOutcome {
  ret: ContractRet;
  energyTotal: number;
  energyFromStake: number;
  energyFee: bigint;
  penalty: number;
  /** Hex return data (or revert data), no 0x. */
  result: string;
  /** The anvil transaction that carries a successful call's effects. */
  evmHash?: string;
}

interface TraceResult {
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

/** Energy a TriggerSmartContract may spend: staked energy left plus what the balance can burn, capped by fee_limit (VMActuator.getAccountEnergyLimitWithFixRatio). */
export function energyLimit(ledger: Ledger, acc: Account, feeLimit: bigint, now: number): number {
  const fee = BigInt(ledger.params.energyFee);
  const left = ledger.energyLeft(acc, now);
  const fromBalance = Number((acc.balance > 0n ? acc.balance : 0n) / fee);
  return Math.min(left + fromBalance, Number(feeLimit / fee));
}

/**
 * Runs a contract call as the TVM would: the call is traced first on anvil's pending state (the
 * state this block has reached), its energy priced with the TVM schedule and the contract's
 * dynamic factor; only a call that succeeds within its energy limit is sent to anvil, so a
 * REVERT or OUT_OF_ENERGY leaves no state change, as on TRON. Energy comes from stake first,
 * then burned TRX; OUT_OF_ENERGY consumes the whole limit.
 */
export async function runTrigger(
  rpc: Rpc,
  ledger: Ledger,
  acc: Account,
  call: { from: string; to: string; data: string; feeLimit: bigint },
  factor: number,
  now: number,
): Promise<TriggerOutcome> {
  const evmCall = { from: call.from, to: call.to, data: call.data, gas: '0x2faf080', gasPrice: '0x0' };
  const trace = await rpc<TraceResult>('debug_traceCall', [evmCall, 'pending', { enableMemory: false, disableStorage: true }]);
  const pre = await rpc<Record<string, { storage?: Record<string, string> }>>('debug_traceCall', [evmCall, 'pending', { tracer: 'prestateTracer' }]);
  const base = tvmEnergy(trace.structLogs, pre[call.to.toLowerCase()]?.storage ?? {});
  const { total, penalty } = withFactor(base, factor);
  const limit = energyLimit(ledger, acc, call.feeLimit, now);
  const ret: ContractRet = total > limit ? 'OUT_OF_ENERGY' : trace.failed ? 'REVERT' : 'SUCCESS';
  const used = ret === 'OUT_OF_ENERGY' ? limit : total;
  const fromStake = Math.min(ledger.energyLeft(acc, now), used);
  const energyFee = BigInt(used - fromStake) * BigInt(ledger.params.energyFee);
  ledger.useEnergy(acc, fromStake, now);
  acc.balance -= energyFee;
  let evmHash: string | undefined;
  if (ret === 'SUCCESS') evmHash = await rpc<string>('eth_sendTransaction', [evmCall]);
  return {
    ret,
    energyTotal: used,
    energyFromStake: fromStake,
    energyFee,
    penalty: ret === 'OUT_OF_ENERGY' ? 0 : penalty,
    result: ret === 'OUT_OF_ENERGY' ? '' : trace.returnValue.replace(/^0x/, ''),
    evmHash,
  };
}

/** A constant call (triggerconstantcontract): result, TVM energy, no state change. */
export async function constantCall(rpc: Rpc, call: { from: string; to: string; data: string }, factor: number) {
  const evmCall = { ...call, gas: '0x2faf080', gasPrice: '0x0' };
  const trace = await rpc<TraceResult>('debug_traceCall', [evmCall, 'pending', { enableMemory: false, disableStorage: true }]);
  const pre = await rpc<Record<string, { storage?: Record<string, string> }>>('debug_traceCall', [evmCall, 'pending', { tracer: 'prestateTracer' }]);
  const base = tvmEnergy(trace.structLogs, pre[call.to.toLowerCase()]?.storage ?? {});
  const { total, penalty } = withFactor(base, factor);
  return { failed: trace.failed, result: trace.returnValue.replace(/^0x/, ''), energy: total, penalty };
}
