import { describe, expect, it } from 'vitest';
import { compileUsdt } from './compile-usdt';
import artifact from './tether-trc20.json' with { type: 'json' };

describe('the TRC-20 USDT stand-in', () => {
  it('is the compiled TetherTRC20.sol (run scripts/compile-tron-usdt.ts after changing it)', () => {
    const fresh = compileUsdt();
    expect(fresh.bytecode).toBe(artifact.bytecode);
    expect(fresh.abi).toEqual(artifact.abi);
  }, 120_000);
});
