import { describe, expect, it } from 'vitest';
import { tvmEnergy, type StructLog } from './energy';

/** The pricer on a hand-made trace: what each rule of java-tron's EnergyCost / VM.play contributes. */
const ROOT = `0x${'aa'.repeat(20)}`;
const TOKEN = `0x${'bb'.repeat(20)}`;
const factors: Record<string, number> = { [TOKEN]: 3.4 };
const factorOf = (a: string) => factors[a] ?? 0;
const w = (n: number) => `0x${n.toString(16)}`;

describe('tvmEnergy', () => {
  it('prices a CALL at 40 + memory, each frame with its own storage and factor, the penalty per opcode', () => {
    const logs: StructLog[] = [
      { op: 'PUSH1', gasCost: 3, depth: 1 },
      // stack bottom → top: retSize, retOffset, argsSize, argsOffset, value, address, gas; memory 4 words before.
      { op: 'CALL', gasCost: 2_612, depth: 1, stack: [w(32), w(0), w(100), w(128), w(0), TOKEN, w(0xffff)], memory: Array(4).fill('00') },
      { op: 'SLOAD', gasCost: 2_100, depth: 2, stack: [w(0)] },
      { op: 'SSTORE', gasCost: 22_100, depth: 2, stack: [w(1), w(0)] },
      { op: 'PUSH1', gasCost: 3, depth: 2 },
      { op: 'RETURN', gasCost: 0, depth: 2 },
      { op: 'SSTORE', gasCost: 2_900, depth: 1, stack: [w(1), w(0)] },
    ];
    const got = tvmEnergy(logs, ROOT, { [ROOT]: { '0x0': w(5) } }, factorOf);
    // CALL: 40 + memory 4 → 8 words (3×8 − 3×4 = 12) at factor 0; in the token: SLOAD 50, SSTORE set 20,000 and
    // PUSH1 3, each × 4.4 floored (220, 88,000, 13); back in the root the slot holding 5 is reset: 5,000.
    expect(got).toEqual({ total: 3 + 52 + 220 + 88_000 + 13 + 5_000, penalty: 170 + 68_000 + 10 });
  });

  it('refuses what it does not price: DELEGATECALL, CREATE, calls with a value, precompiles', () => {
    const call = (op: string, stack: string[]) => () => tvmEnergy([{ op, gasCost: 100, depth: 1, stack, memory: [] }], ROOT, {}, factorOf);
    expect(call('DELEGATECALL', [])).toThrow(/DELEGATECALL/);
    expect(call('CREATE', [])).toThrow(/CREATE/);
    expect(call('CALL', [w(0), w(0), w(0), w(0), w(1), TOKEN, w(1)])).toThrow(/value/);
    expect(call('STATICCALL', [w(0), w(0), w(0), w(0), w(1), w(1)])).toThrow(/precompiled/);
  });
});
