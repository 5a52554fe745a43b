import type { Rpc } from './anvil-process';
import { tvmEnergy, type Priced, type PreStorage, type StructLog } from './energy';
import type { Account, Ledger } from './ledger';

export type ContractRet = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';

export interface TriggerOutcome {
  ret: ContractRet;
  energyTotal: number;
  /** Caller's energy from stake (`energy_usage`). */
  energyFromStake: number;
  /** The contract owner's staked energy spent on this call (`origin_energy_usage`). */
  originEnergy: number;
  energyFee: bigint;
  penalty: number;
  /** Hex return data (or revert data), no 0x. */
  result: string;
  /** The anvil transaction that carries a successful call's effects. */
  evmHash?: string;
}

/** Who pays a call's energy besides the caller (the contract's `origin_address`, consume_user_resource_percent, origin_energy_limit). */
export interface Origin {
  acc: Account | undefined;
  /** The caller is the contract's owner: it pays everything itself. */
  isCaller: boolean;
  userPercent: number;
  originEnergyLimit: number;
}

interface TraceResult {
  failed: boolean;
  returnValue: string;
  structLogs: StructLog[];
}

export interface EvmCall {
  from: string;
  to?: string;
  data: string;
}

/** Energy a TriggerSmartContract may spend: staked energy left plus what the balance can burn, capped by fee_limit (VMActuator.getAccountEnergyLimitWithFixRatio). */
export function energyLimit(ledger: Ledger, acc: Account, feeLimit: bigint, now: number): number {
  const fee = BigInt(ledger.params.energyFee);
  const left = ledger.energyLeft(acc, now);
  const fromBalance = Number((acc.balance > 0n ? acc.balance : 0n) / fee);
  return Math.min(left + fromBalance, Number(feeLimit / fee));
}

/**
 * What the contract's owner may add to the caller's limit (VMActuator.getTotalEnergyLimitWithFixRatio): nothing when
 * the caller owns it or callers pay 100%; else its staked energy left capped by origin_energy_limit, and with
 * 0 < percent < 100 also by callerLimit × (100 − percent) / percent.
 */
function originLimit(ledger: Ledger, o: Origin, callerLimit: number, now: number): number {
  if (o.isCaller || !o.acc || o.userPercent >= 100) return 0;
  const own = Math.min(ledger.energyLeft(o.acc, now), o.originEnergyLimit);
  if (o.userPercent <= 0) return own;
  return Math.min(Math.floor((callerLimit * (100 - o.userPercent)) / o.userPercent), own);
}

/** Traces `call` on anvil's pending state (memory on: calls' memory is priced) and prices it for the TVM. */
export async function traceAndPrice(
  rpc: Rpc,
  call: EvmCall,
  root: string,
  factorOf: (a: string) => number,
): Promise<{ trace: TraceResult; priced: Priced }> {
  const evmCall = { ...call, gas: '0x2faf080', gasPrice: '0x0' };
  const trace = await rpc<TraceResult>('debug_traceCall', [evmCall, 'pending', { enableMemory: true, disableStorage: true }]);
  const pre = await rpc<Record<string, { storage?: Record<string, string> }>>('debug_traceCall', [evmCall, 'pending', { tracer: 'prestateTracer' }]);
  const storage: PreStorage = {};
  for (const [a, s] of Object.entries(pre)) storage[a.toLowerCase()] = s.storage ?? {};
  // A creation's own storage starts empty whatever address the engine would give it.
  if (!call.to) storage[root.toLowerCase()] = {};
  return { trace, priced: tvmEnergy(trace.structLogs, root, storage, factorOf) };
}

/**
 * Charges `energy` computed for a call: the owner's share first (ReceiptCapsule.payEnergyBill: ⌊energy × (100 −
 * percent) / 100⌋, at most its staked energy left and origin_energy_limit, staked energy only), then the caller's
 * staked energy, then 100 sun per unit burned from the caller.
 */
export function payEnergy(ledger: Ledger, caller: Account, origin: Origin | undefined, used: number, now: number) {
  let originEnergy = 0;
  if (origin?.acc && !origin.isCaller && origin.userPercent < 100) {
    originEnergy = Math.min(Math.floor((used * (100 - origin.userPercent)) / 100), ledger.energyLeft(origin.acc, now), origin.originEnergyLimit);
    ledger.useEnergy(origin.acc, originEnergy, now);
  }
  const callerUsage = used - originEnergy;
  const fromStake = Math.min(ledger.energyLeft(caller, now), callerUsage);
  const energyFee = BigInt(callerUsage - fromStake) * BigInt(ledger.params.energyFee);
  ledger.useEnergy(caller, fromStake, now);
  caller.balance -= energyFee;
  return { originEnergy, fromStake, energyFee };
}

/**
 * Runs a contract call as the TVM would: the call is traced first on anvil's pending state (the
 * state this block has reached), its energy priced with the TVM schedule and each contract's
 * dynamic factor; only a call that succeeds within its energy limit is sent to anvil, so a
 * REVERT or OUT_OF_ENERGY leaves no state change, as on TRON. OUT_OF_ENERGY consumes the whole limit.
 */
export async function runTrigger(
  rpc: Rpc,
  ledger: Ledger,
  acc: Account,
  call: { from: string; to: string; data: string; feeLimit: bigint },
  origin: Origin,
  factorOf: (a: string) => number,
  now: number,
): Promise<TriggerOutcome> {
  const evmCall = { from: call.from, to: call.to, data: call.data };
  const { trace, priced } = await traceAndPrice(rpc, evmCall, call.to, factorOf);
  const callerLimit = energyLimit(ledger, acc, call.feeLimit, now);
  const limit = callerLimit + originLimit(ledger, origin, callerLimit, now);
  const ret: ContractRet = priced.total > limit ? 'OUT_OF_ENERGY' : trace.failed ? 'REVERT' : 'SUCCESS';
  const used = ret === 'OUT_OF_ENERGY' ? limit : priced.total;
  const paid = payEnergy(ledger, acc, origin, used, now);
  let evmHash: string | undefined;
  if (ret === 'SUCCESS') evmHash = await rpc<string>('eth_sendTransaction', [{ ...evmCall, gas: '0x2faf080', gasPrice: '0x0' }]);
  return {
    ret,
    energyTotal: used,
    energyFromStake: paid.fromStake,
    originEnergy: paid.originEnergy,
    energyFee: paid.energyFee,
    penalty: ret === 'OUT_OF_ENERGY' ? 0 : priced.penalty,
    result: ret === 'OUT_OF_ENERGY' ? '' : trace.returnValue.replace(/^0x/, ''),
    evmHash,
  };
}

/** A constant call (triggerconstantcontract): result, TVM energy, no state change. */
export async function constantCall(rpc: Rpc, call: { from: string; to: string; data: string }, factorOf: (a: string) => number) {
  const { trace, priced } = await traceAndPrice(rpc, call, call.to, factorOf);
  return { failed: trace.failed, result: trace.returnValue.replace(/^0x/, ''), energy: priced.total, penalty: priced.penalty };
}
