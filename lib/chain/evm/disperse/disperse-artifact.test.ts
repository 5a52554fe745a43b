import { describe, expect, it } from 'vitest';
import { compileDisperse } from './compile-disperse';
import artifact from './disperse.json' with { type: 'json' };

describe('the disperse contract', () => {
  it('is the compiled Disperse.sol (run scripts/compile-disperse.ts after changing it)', () => {
    const fresh = compileDisperse();
    expect({ abi: fresh.abi, bytecode: fresh.bytecode }).toEqual({ abi: artifact.abi, bytecode: artifact.bytecode });
  }, 120_000);
});
