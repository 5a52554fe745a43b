import { getContractAddress, keccak256, type Hex } from 'viem';
import { toBase58, toEvm } from './address';
import type { Rpc } from './anvil-process';
import { validateError } from './bandwidth';
import type { Account, Ledger } from './ledger';
import { energyLimit, payEnergy, traceAndPrice, type ContractRet } from './trigger';

/** java-tron's code deposit: 200 energy per byte of runtime code (EnergyCost.CREATE_DATA, VMActuator.execute). */
export const CREATE_DATA = 200;

/** A CreateSmartContract's `new_contract`, as the stand-in keeps it. */
export interface NewContract {
  name: string;
  abi: unknown[];
  /** Creation code with the constructor's arguments appended (what java-tron stores and getcontract returns). */
  bytecode: string;
  userPercent: number;
  originEnergyLimit: number;
}

/**
 * WalletUtil.generateContractAddress: keccak256(txID ‖ owner's 21 bytes), last 20 bytes, 0x41 in front
 * (Hash.sha3omit12). TronWeb's genContractAddress derives the same.
 */
export function contractAddressOf(txId: string, owner41: string): string {
  return `41${keccak256(`0x${txId}${owner41}` as Hex).slice(-40)}`;
}

/**
 * VMActuator.create's checks, in its order and with its messages. The stand-in leaves out call_value and TRC-10
 * (refused), and the `version` field.
 */
export function checkDeploy(
  ledger: Ledger,
  value: Record<string, unknown>,
  owner: string,
  txId: string,
  feeLimit: number,
): { contract: NewContract; address: string } {
  const nc = (value.new_contract ?? {}) as Record<string, unknown>;
  if (String(nc.origin_address ?? '').toLowerCase() !== owner) throw validateError('OwnerAddress is not equals OriginAddress');
  const name = String(nc.name ?? '');
  if (Buffer.byteLength(name) > 32) throw validateError("contractName's length cannot be greater than 32");
  const userPercent = Number(nc.consume_user_resource_percent ?? 0);
  if (userPercent < 0 || userPercent > 100) throw validateError('percent must be >= 0 and <= 100');
  const address = contractAddressOf(txId, owner);
  if (ledger.get(address)) throw validateError(`Trying to create a contract with existing contract address: ${toBase58(address)}`);
  if (feeLimit < 0 || feeLimit > ledger.params.maxFeeLimit) throw validateError(`feeLimit must be >= 0 and <= ${ledger.params.maxFeeLimit}`);
  if (Number(nc.call_value ?? 0) !== 0 || Number(value.call_token_value ?? 0) !== 0)
    throw validateError('call_value and TRC-10 values are not modelled by the stand-in');
  const originEnergyLimit = Number(nc.origin_energy_limit ?? 0);
  if (originEnergyLimit <= 0) throw validateError('The originEnergyLimit must be > 0');
  const abi = (nc.abi as { entrys?: unknown[] } | undefined)?.entrys ?? [];
  return { contract: { name, abi, bytecode: String(nc.bytecode ?? '').replace(/^0x/, ''), userPercent, originEnergyLimit }, address };
}

export interface DeployOutcome {
  ret: ContractRet;
  energyTotal: number;
  energyFromStake: number;
  energyFee: bigint;
  /** Runtime code (hex, no 0x) of a created contract: `contractResult`. */
  code: string;
  log: { address: string; topics: string[]; data: string }[];
}

interface CallFrame {
  logs?: { address: string; topics: string[]; data: string }[];
  calls?: CallFrame[];
}

/**
 * Runs a CreateSmartContract: the creation code is traced on anvil and priced for the TVM (its opcodes, then 200
 * energy per byte of runtime code; no 32,000 creation base, which only the CREATE opcode pays), within the owner's
 * limit (staked energy + balance / 100, capped by fee_limit). On success the code and the constructor's storage
 * are written at the TRON-derived address (anvil_setCode / anvil_setStorageAt): anvil cannot create at an address
 * of our choosing. A constructor that calls other contracts is refused (its effects there would be lost).
 */
export async function runDeploy(
  rpc: Rpc,
  ledger: Ledger,
  acc: Account,
  d: { owner: string; address: string; contract: NewContract; feeLimit: bigint },
  factorOf: (a: string) => number,
  now: number,
): Promise<DeployOutcome> {
  const from = toEvm(d.owner);
  const call = { from, data: `0x${d.contract.bytecode}` };
  const { trace, priced } = await traceAndPrice(rpc, call, toEvm(d.address), factorOf);
  if (trace.structLogs.some((s) => s.depth > 1)) throw new Error('the stand-in does not model constructors that call other contracts');
  const code = trace.failed ? '' : trace.returnValue.replace(/^0x/, '');
  const total = priced.total + (code.length / 2) * CREATE_DATA;
  const limit = energyLimit(ledger, acc, d.feeLimit, now);
  const ret: ContractRet = total > limit ? 'OUT_OF_ENERGY' : trace.failed ? 'REVERT' : 'SUCCESS';
  const used = ret === 'OUT_OF_ENERGY' ? limit : total;
  const paid = payEnergy(ledger, acc, undefined, used, now);
  const out: DeployOutcome = { ret, energyTotal: used, energyFromStake: paid.fromStake, energyFee: paid.energyFee, code: '', log: [] };
  if (ret !== 'SUCCESS') return out;

  const nonce = await rpc<string>('eth_getTransactionCount', [from, 'pending']);
  const engineAddr = getContractAddress({ from, nonce: BigInt(nonce) }).toLowerCase();
  const diff = await rpc<{ post: Record<string, { storage?: Record<string, string> }> }>('debug_traceCall', [
    { ...call, gas: '0x2faf080', gasPrice: '0x0' },
    'pending',
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  ]);
  const storage = Object.entries(diff.post).find(([a]) => a.toLowerCase() === engineAddr)?.[1].storage ?? {};
  const target = toEvm(d.address);
  await rpc('anvil_setCode', [target, `0x${code}`]);
  for (const [slot, value] of Object.entries(storage)) await rpc('anvil_setStorageAt', [target, slot, value]);
  const frame = await rpc<CallFrame>('debug_traceCall', [
    { ...call, gas: '0x2faf080', gasPrice: '0x0' },
    'pending',
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
  ]);
  out.code = code;
  out.log = (frame.logs ?? []).map((l) => ({ address: target.slice(2), topics: l.topics.map((t) => t.slice(2)), data: l.data.slice(2) }));
  return out;
}
