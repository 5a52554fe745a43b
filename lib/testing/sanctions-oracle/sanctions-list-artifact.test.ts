import { describe, expect, it } from 'vitest';
import { compileSanctionsList } from './compile-sanctions-list';
import artifact from './test-sanctions-list.json' with { type: 'json' };

describe('the sanctions oracle stand-in', () => {
  it('is the compiled TestSanctionsList.sol (run scripts/compile-test-sanctions-list.ts after changing it)', () => {
    const fresh = compileSanctionsList();
    expect({ abi: fresh.abi, bytecode: fresh.bytecode }).toEqual({ abi: artifact.abi, bytecode: artifact.bytecode });
  }, 120_000);
});
