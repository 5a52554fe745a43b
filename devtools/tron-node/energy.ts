/**
 * TVM energy of an EVM execution trace. The TVM prices opcodes like Ethereum's Frontier schedule
 * (java-tron actuator/src/main/java/org/tron/core/vm/EnergyCost.java): SLOAD 50, SSTORE 20000 to set
 * a zero slot and 5000 otherwise (no refunds), BALANCE/EXTCODESIZE/EXTCODECOPY 20, EXTCODEHASH 400,
 * CALL family 40, and no 21000 base cost or calldata gas (bandwidth pays for the bytes). Anvil runs
 * a later hardfork (EIP-2929 cold/warm prices), so each step's EVM cost is replaced where the two
 * schedules differ; every other opcode and memory expansion costs the same on both.
 */
export interface StructLog {
  op: string;
  gasCost: number;
  depth: number;
  stack?: string[];
}

/** Storage of the traced contract before the call (prestateTracer), slot → value. */
export type PreStorage = Record<string, string>;

const FLAT: Record<string, number> = { SLOAD: 50, BALANCE: 20, EXTCODESIZE: 20, EXTCODEHASH: 400 };
const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

const isZero = (v: string | undefined) => !v || BigInt(v) === 0n;
const word = (v: string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`;

/** Base energy (before the dynamic energy factor) of a single-contract execution. */
export function tvmEnergy(logs: StructLog[], pre: PreStorage): number {
  const storage = new Map<string, string>(Object.entries(pre).map(([k, v]) => [word(k), v]));
  let energy = 0;
  for (const step of logs) {
    if (CALLS.has(step.op)) throw new Error(`the stand-in prices single-contract calls only; ${step.op} seen`);
    if (step.op === 'SSTORE') {
      const stack = step.stack ?? [];
      const key = word(stack[stack.length - 1]!);
      const value = stack[stack.length - 2]!;
      const old = storage.get(key);
      energy += isZero(old) && !isZero(value) ? 20_000 : 5_000;
      storage.set(key, value);
      continue;
    }
    if (step.op === 'EXTCODECOPY') {
      // 20 + the copy cost, which both schedules share: the EVM cost minus its access cost (2600 cold / 100 warm).
      energy += 20 + Math.max(0, step.gasCost - (step.gasCost >= 2600 ? 2600 : 100));
      continue;
    }
    energy += FLAT[step.op] ?? step.gasCost;
  }
  return energy;
}

/** Energy charged for a call with the contract's dynamic energy factor (java-tron: base + base × factor as `energy_penalty_total`). */
export function withFactor(base: number, factor: number): { total: number; penalty: number } {
  const penalty = Math.floor(base * factor);
  return { total: base + penalty, penalty };
}
