/**
 * TVM energy of an EVM execution trace. The TVM prices opcodes like Ethereum's Frontier schedule
 * (java-tron actuator/src/main/java/org/tron/core/vm/EnergyCost.java): SLOAD 50, SSTORE 20000 to set
 * a zero slot and 5000 otherwise (no refunds), BALANCE/EXTCODESIZE/EXTCODECOPY 20, EXTCODEHASH 400,
 * CALL/STATICCALL 40 + memory (no EIP-2929 access cost; 9000 more with a value), and no 21000 base cost or calldata
 * gas (bandwidth pays for the bytes). Anvil runs a later hardfork (EIP-2929 cold/warm prices), so each step's EVM
 * cost is replaced where the two schedules differ; every other opcode and memory expansion costs the same on both.
 *
 * Calls between contracts: each frame's steps are priced with the storage and the dynamic energy factor of the
 * contract it runs in. The factor is applied per opcode, as VM.play does: penalty = ⌊cost × factor / 10000⌋ − cost with
 * factor = 10000 + energy_factor (CALL ops: on the call's own cost, not the energy it forwards; getCalculateCallCost).
 * The energy a CALL forwards is only a reservation (unused energy comes back), so the total is the sum of every step.
 */
export interface StructLog {
  op: string;
  gasCost: number;
  depth: number;
  stack?: string[];
  /** 32-byte words of memory before the step (debug_traceCall with enableMemory). */
  memory?: string[];
}

/** Storage of the traced contracts before the call (prestateTracer), address (0x…, lower case) → slot → value. */
export type PreStorage = Record<string, Record<string, string>>;

export interface Priced {
  /** Energy used, penalty included. */
  total: number;
  /** Of which the dynamic energy factor's surcharge (`energy_penalty_total`). */
  penalty: number;
}

const FLAT: Record<string, number> = { SLOAD: 50, BALANCE: 20, EXTCODESIZE: 20, EXTCODEHASH: 400 };
const CALLS = new Set(['CALL', 'STATICCALL']);
const UNMODELLED = new Set(['CALLCODE', 'DELEGATECALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT', 'CALLTOKEN']);
const DECIMAL = 10_000;

const isZero = (v: string | undefined) => !v || BigInt(v) === 0n;
const word = (v: string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`;
const addr = (v: string) => `0x${BigInt(v).toString(16).padStart(40, '0')}`;
const memCost = (words: number) => 3 * words + Math.floor((words * words) / 512);

/** The energy factor (×10000, plus 10000) java-tron multiplies a contract's opcodes by: 3.4 → 44000. */
export const factorDecimal = (energyFactor: number) => DECIMAL + Math.round(energyFactor * DECIMAL);

/** Memory expansion of a CALL (EnergyCost.calcMemEnergy): the larger of its input and output ranges. */
function callMemory(step: StructLog, opOff: number): number {
  const s = step.stack ?? [];
  const at = (i: number) => BigInt(s[s.length - i]!);
  const end = (off: bigint, size: bigint) => (size === 0n ? 0n : off + size);
  const need = Number([end(at(opOff), at(opOff + 1)), end(at(opOff + 2), at(opOff + 3))].reduce((a, b) => (a > b ? a : b)));
  const oldWords = step.memory?.length ?? 0;
  const newWords = Math.ceil(need / 32);
  return newWords > oldWords ? memCost(newWords) - memCost(oldWords) : 0;
}

/**
 * Energy of a traced execution. `root`: the address (0x…, lower case) the top frame runs in; `factorOf(address)`: the
 * contract's energy factor (0 for one without). Throws on what the stand-in does not price (CREATE, DELEGATECALL,
 * precompiles, calls with value).
 */
export function tvmEnergy(logs: StructLog[], root: string, pre: PreStorage, factorOf: (address: string) => number): Priced {
  const storage = new Map<string, Map<string, string>>();
  const slots = (a: string) => {
    let m = storage.get(a);
    if (!m) {
      m = new Map(Object.entries(pre[a] ?? {}).map(([k, v]) => [word(k), v]));
      storage.set(a, m);
    }
    return m;
  };
  const frames: string[] = [root.toLowerCase()];
  let total = 0;
  let penalty = 0;
  for (let i = 0; i < logs.length; i++) {
    const step = logs[i]!;
    frames.length = step.depth;
    const here = frames[step.depth - 1]!;
    if (UNMODELLED.has(step.op)) throw new Error(`the stand-in does not price ${step.op}`);
    const stack = step.stack ?? [];
    let cost: number;
    if (step.op === 'SSTORE') {
      const key = word(stack[stack.length - 1]!);
      const value = stack[stack.length - 2]!;
      const s = slots(here);
      cost = isZero(s.get(key)) && !isZero(value) ? 20_000 : 5_000;
      s.set(key, value);
    } else if (step.op === 'EXTCODECOPY') {
      // 20 + the copy cost, which both schedules share: the EVM cost minus its access cost (2600 cold / 100 warm).
      cost = 20 + Math.max(0, step.gasCost - (step.gasCost >= 2600 ? 2600 : 100));
    } else if (CALLS.has(step.op)) {
      if (step.memory === undefined) throw new Error('trace calls with enableMemory: the stand-in prices their memory');
      const target = addr(stack[stack.length - 2]!);
      if (step.op === 'CALL' && !isZero(stack[stack.length - 3])) throw new Error('the stand-in does not price calls with a value');
      if (BigInt(target) <= 0xffffn) throw new Error(`the stand-in does not price precompiled contracts (${target})`);
      cost = 40 + callMemory(step, step.op === 'CALL' ? 4 : 3);
      if (logs[i + 1]?.depth === step.depth + 1) frames.push(target);
    } else {
      cost = FLAT[step.op] ?? step.gasCost;
    }
    const extra = Math.max(0, Math.floor((cost * factorDecimal(factorOf(here))) / DECIMAL) - cost);
    total += cost + extra;
    penalty += extra;
  }
  return { total, penalty };
}
