import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADDRESS_RULES } from '@/lib/chain/address-rules';
import { familyOf, splitRailId } from '@/lib/config/rails';
import { ALL_DEV_RAILS, DEV_RAILS } from '@/lib/dev/dev-rails';
import { MATRIX_CHAINS } from './matrix-chains';

/*
 * A rail the dev stack enables must be one the matrix can run (issue 43 §1): its family has a matrix chain (to pay,
 * mine and read on) and an address rule (what the forms accept), and both matrices take their rails from
 * lib/dev/dev-rails.ts, so enabling a rail there adds its rows (rail-matrix.test.ts, e2e/rail-matrix.spec.ts).
 */
describe('rail matrix coverage', () => {
  it.each(ALL_DEV_RAILS)('%s: its family has a matrix chain and an address rule', (rail) => {
    const family = familyOf(splitRailId(rail).chain);
    expect(MATRIX_CHAINS[family], `no matrix chain for the ${family} family`).toBeTypeOf('function');
    expect(ADDRESS_RULES[family]?.family).toBe(family);
  });

  it('both matrices and the dev stack read the one list of dev rails', () => {
    for (const file of ['lib/testing/rail-matrix/rail-matrix.test.ts', 'e2e/rail-matrix.spec.ts', 'e2e/support/stack-env.ts', 'scripts/dev.ts'])
      expect(readFileSync(file, 'utf8'), file).toMatch(/\bDEV_RAILS\b/);
    expect(new Set(DEV_RAILS.map((r) => familyOf(splitRailId(r).chain)))).toEqual(new Set(Object.keys(MATRIX_CHAINS)));
  });
});
