import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * What differs between chain families lives in the family code (issue 43): each family's address rule, codec,
 * reader, FamilyOps and configuration syntax. A form or page that writes its own address pattern or asks "is this
 * TRON?" drifts from what the family's lane accepts (the dashboard refused every T… address on TRON rails). So no
 * file outside the family code holds a family branch: everything else asks familyOps(chain) or its domain's
 * Record<ChainFamily, …>. lib/testing drives chains and is exempt.
 */
const root = process.cwd();

/** A family branch or an address rule written out: the forms the review counted, and address patterns. */
const BRANCH = [
  /startsWith\(\s*['"]T['"]\s*\)/g,
  /[!=]==\s*['"](?:tron|evm|solana)['"]/g,
  /['"](?:tron|evm|solana)['"]\s*[!=]==/g,
  /\bisEvmNetwork\(/g,
  /0x\[0-9a-fA-F\]\{40\}/g,
  /T\[1-9A-HJ/g,
];

/** Family branches and written-out address patterns in a source text. */
const countBranches = (text: string) => BRANCH.reduce((sum, re) => sum + (text.match(re)?.length ?? 0), 0);

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
      const n = countBranches(readFileSync(file, 'utf8'));
      if (n > 0) out[path] = n;
    }
  }
  return out;
}

/**
 * The family code: each family's folder in the chain adapter (lib/chain/evm/, lib/chain/tron/, lib/chain/solana/),
 * its FamilyOps beside them (lib/chain/evm-family.ts, lib/chain/tron-family.ts: they read through lib/chain's own
 * files, which the folders sit below), the one table that dispatches to them (lib/chain/families.ts), and each family's
 * configuration syntax (lib/config/evm/, lib/config/tron/: lib/config is read before lib/chain and cannot import it).
 */
const FAMILY_CODE = /^lib\/(?:chain\/(?:evm\/|tron\/|solana\/|families\.ts$|[\w-]+-family\.ts$)|config\/(?:evm|tron|solana)\/)/;

describe('the chain family seam', () => {
  it('app/, components/ and jobs/ take every address rule and family fact from lib: no branch of their own', () => {
    expect(familyBranches(['app', 'components', 'jobs'])).toEqual({});
  });

  it('lib holds no family branch outside the family code (a new one belongs behind FamilyOps or a Record<ChainFamily, …>)', () => {
    expect(familyBranches(['lib'], (p) => FAMILY_CODE.test(p) || p.startsWith('lib/testing/'))).toEqual({});
  });

  it('the check sees each form of family branch and address pattern', () => {
    const forms = [
      "if (addr.startsWith('T')) return tron(addr);",
      "const fee = familyOf(chain) === 'tron' ? energy : gas;",
      "if ('evm' !== spec.family) return;",
      "if (net.family === 'solana') return closeAccount();",
      'if (isEvmNetwork(net)) watch(net);',
      'const ok = /^0x[0-9a-fA-F]{40}$/.test(s);',
      'const ok = /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s);',
    ];
    for (const f of forms) expect(countBranches(f), f).toBe(1);
    expect(countBranches('const fee = FEES[familyOf(chain)]; if (plan.kind === kind) return plan;')).toBe(0);
  });

  it('FAMILY_CODE exempts the family folders, their FamilyOps and the table, and nothing generic', () => {
    for (const p of [
      'lib/chain/families.ts',
      'lib/chain/evm-family.ts',
      'lib/chain/tron-family.ts',
      'lib/chain/tron/address.ts',
      'lib/chain/evm/address-rule.ts',
      'lib/chain/solana/address.ts',
      'lib/config/tron/env-address.ts',
      'lib/config/evm/env-address.ts',
    ])
      expect(FAMILY_CODE.test(p), p).toBe(true);
    for (const p of [
      'lib/chain/network.ts',
      'lib/chain/check-rail.ts',
      'lib/chain/evm-x.ts',
      'lib/chain/families.tsx',
      'lib/settlements/tron/plan-tron-sweep.ts',
      'lib/config/network-env.ts',
      'lib/config/env-addresses.ts',
    ])
      expect(FAMILY_CODE.test(p), p).toBe(false);
  });
});
