import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toBase58 as gatewayToBase58, toEvm as gatewayToEvm, toHex41 as gatewayToHex41 } from '@/lib/chain/tron/address';
import { tronDepositKey } from '@/lib/chain/tron/deposit-key';
import { DEV_MNEMONIC as GATEWAY_DEV_MNEMONIC } from '@/lib/config/network-env';
import { Decimal as GatewayDecimal } from '@/lib/money';
import { Decimal } from './exchange-sim/decimal';
import { toBase58, toEvm, toHex41 } from './tron-node/address';
import { DEV_MNEMONIC, STAND_IN_BRANCH, devKey } from './tron-node/dev-keys';

/*
 * devtools/ holds the local chains and services `npm run dev` and the tests start beside the gateway, as anvil
 * is: the TRON stand-in node and the exchange simulator. They stand for the outside world, so they import nothing
 * from the gateway (a shared helper would let a gateway bug hide in its own stand-in); what they must agree on is
 * duplicated, and checked here. Only the gateway's dev wiring and tests start them.
 */
const root = process.cwd();

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield p;
  }
}

const specifiers = (text: string) => [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);

/** Every import of a devtools source that reaches outside devtools/ into the repository, as `path: specifier`. */
function importsOutside(): string[] {
  const out: string[] = [];
  for (const file of sources(join(root, 'devtools'))) {
    for (const s of specifiers(readFileSync(file, 'utf8'))) {
      const target = s.startsWith('@/') ? join(root, s.slice(2)) : s.startsWith('.') ? resolve(dirname(file), s) : null;
      if (target && relative(join(root, 'devtools'), target).startsWith('..')) out.push(`${relative(root, file)}: ${s}`);
    }
  }
  return out;
}

/** Product sources (not tests, not lib/testing or lib/dev, the dev stack's wiring) that import devtools. */
function productImportsOfDevtools(): string[] {
  const out: string[] = [];
  for (const folder of ['app', 'components', 'jobs', 'lib']) {
    for (const file of sources(join(root, folder))) {
      const path = relative(root, file);
      if (path.startsWith('lib/testing/') || path.startsWith('lib/dev/')) continue;
      for (const s of specifiers(readFileSync(file, 'utf8'))) if (/(?:^@\/|\/)devtools\//.test(s)) out.push(`${path}: ${s}`);
    }
  }
  return out;
}

describe('devtools/ stands apart from the gateway', () => {
  it('imports nothing from the gateway (packages and its own files only)', () => {
    expect(importsOutside()).toEqual([]);
  });

  it('the check sees an import of the gateway', () => {
    expect(specifiers(`import { x } from '@/lib/money';\nconst y = await import('../lib/db');`)).toEqual(['@/lib/money', '../lib/db']);
  });

  it('is started only by the dev wiring and tests, never imported by the product', () => {
    expect(productImportsOfDevtools()).toEqual([]);
  });
});

describe('what devtools duplicate agrees with the gateway', () => {
  it("the stand-in's dev mnemonic is the gateway's, and its wallets are the gateway's TRON derivation on its own branch", () => {
    expect(DEV_MNEMONIC).toBe(GATEWAY_DEV_MNEMONIC);
    for (const i of [0, 1, 4]) expect(devKey(i)).toEqual(tronDepositKey(GATEWAY_DEV_MNEMONIC, i, STAND_IN_BRANCH));
  });

  it("the stand-in's address forms are the gateway codec's", () => {
    const k = devKey(2);
    for (const a of [k.address, k.hex, `0x${k.hex.slice(2)}`, `0x${k.hex.slice(2).toUpperCase()}`]) {
      expect(toHex41(a)).toBe(gatewayToHex41(a));
      expect(toBase58(a)).toBe(gatewayToBase58(a));
      expect(toEvm(a)).toBe(gatewayToEvm(a));
    }
    expect(() => toHex41('T' + k.address.slice(1, -1) + 'x')).toThrow();
  });

  it("the exchange simulator's Decimal has lib/money's precision and rounding, and leaves the process's alone", () => {
    for (const k of ['precision', 'rounding', 'toExpNeg', 'toExpPos'] as const) expect(Decimal[k]).toBe(GatewayDecimal[k]);
    expect(Decimal).not.toBe(GatewayDecimal);
  });
});
