import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * What differs between chain families lives in lib/chain (issue 43): each family's address rule, codec and
 * reader. A form or page that writes its own address pattern or asks "is this TRON?" drifts from what the
 * family's lane accepts (the dashboard refused every T… address on TRON rails). So app/ and components/ hold
 * no family branch at all, and lib's other folders no more than they had when this check came (a ratchet,
 * to be brought to zero by the ChainFamily seam); lib/testing drives chains and is exempt.
 */
const root = process.cwd();

/** A family branch or an address rule written out: the forms the review counted, and address patterns. */
const BRANCH = [
  /startsWith\(\s*['"]T['"]\s*\)/g,
  /[!=]==\s*['"](?:tron|evm)['"]/g,
  /['"](?:tron|evm)['"]\s*[!=]==/g,
  /\bisEvmNetwork\(/g,
  /0x\[0-9a-fA-F\]\{40\}/g,
  /T\[1-9A-HJ/g,
];

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield p;
  }
}

/** Family branches per file under the given top folders (paths relative to the repository). */
export function familyBranches(folders: string[], skip: (path: string) => boolean = () => false): Record<string, number> {
  const out: Record<string, number> = {};
  for (const folder of folders) {
    for (const file of sources(join(root, folder))) {
      const path = relative(root, file);
      if (skip(path)) continue;
      const text = readFileSync(file, 'utf8');
      const n = BRANCH.reduce((sum, re) => sum + (text.match(re)?.length ?? 0), 0);
      if (n > 0) out[path] = n;
    }
  }
  return out;
}

/**
 * The chain adapter's family code: each family's folder (lib/chain/evm/, lib/chain/tron/), its FamilyOps beside
 * them (lib/chain/evm-family.ts, lib/chain/tron-family.ts: they read through lib/chain's own files, which the
 * folders sit below) and the one table that dispatches to them (lib/chain/families.ts).
 */
const FAMILY_CODE = /^lib\/chain\/(?:evm\/|tron\/|families\.ts$|[\w-]+-family\.ts$)/;

/**
 * lib's family branches outside lib/chain: only ever lowered (issue 43 §2 takes them to 0). The sites behind the
 * seam are gone (watch, settle, withdrawal lane, rail check, heads, freeze list, solvency, console wallets, test
 * payment, deposit pool, payment QR, checkout): they ask familyOps(chain) or their domain's Record<ChainFamily, …>.
 * What is left is in files other work is changing, and two sweep-plan tag checks (`gasPlan.kind`) in the families' sweeps.
 */
const LIB_CEILING: Record<string, number> = {
  'lib/config/network-env.ts': 1,
  'lib/config/rails.ts': 1,
  'lib/config/tron-env-address.ts': 2,
  'lib/console/search.ts': 1,
  'lib/destinations/refuse-blacklisted.ts': 1,
  'lib/settlements/settle-evm-invoice.ts': 1,
  'lib/settlements/tron/plan-tron-sweep.ts': 2,
};

/**
 * lib/chain's own family branches outside FAMILY_CODE: a ratchet too. network.ts builds TRON's extra fields
 * (allowTrxBurn, energyLowSweeps) until Network is a union by family (issue 43 §2).
 */
const CHAIN_CEILING: Record<string, number> = {
  'lib/chain/network.ts': 1,
};

const overCeiling = (found: Record<string, number>, ceiling: Record<string, number>) =>
  Object.entries(found)
    .filter(([p, n]) => n > (ceiling[p] ?? 0))
    .map(([p, n]) => `${p}: ${n} (at most ${ceiling[p] ?? 0})`);

describe('the chain family seam', () => {
  it('app/ and components/ take every address rule and family fact from lib/chain: no branch of their own', () => {
    expect(familyBranches(['app', 'components'])).toEqual({});
  });

  it("lib's other folders gain no family branch (a ratchet: lower LIB_CEILING as branches move behind the family)", () => {
    const found = familyBranches(['lib'], (p) => p.startsWith('lib/chain/') || p.startsWith('lib/testing/'));
    expect(overCeiling(found, LIB_CEILING)).toEqual([]);
  });

  it('lib/chain branches on the family only in the family folders and the dispatch table (a ratchet: CHAIN_CEILING)', () => {
    const found = familyBranches(['lib/chain'], (p) => FAMILY_CODE.test(p));
    expect(overCeiling(found, CHAIN_CEILING)).toEqual([]);
  });

  it('FAMILY_CODE exempts the family folders, their FamilyOps and the table, and nothing generic', () => {
    for (const p of [
      'lib/chain/families.ts',
      'lib/chain/evm-family.ts',
      'lib/chain/tron-family.ts',
      'lib/chain/tron/address.ts',
      'lib/chain/evm/address-rule.ts',
    ])
      expect(FAMILY_CODE.test(p), p).toBe(true);
    for (const p of [
      'lib/chain/network.ts',
      'lib/chain/check-rail.ts',
      'lib/chain/evm-x.ts',
      'lib/chain/families.tsx',
      'lib/settlements/tron/plan-tron-sweep.ts',
    ])
      expect(FAMILY_CODE.test(p), p).toBe(false);
  });
});
