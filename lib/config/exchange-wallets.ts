import { readFileSync } from 'node:fs';
import { z } from 'zod';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * Reads an exchange wallet list: addresses separated by commas, spaces or new lines; `#` starts a
 * comment (a label) to the end of its line. Throws naming the first entry that is not an address.
 */
export function parseExchangeWallets(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const entry of line
      .replace(/#.*/, '')
      .split(/[\s,]+/)
      .filter(Boolean)) {
      if (!ADDRESS.test(entry)) throw new Error(`"${entry.slice(0, 60)}" is not a 0x address`);
      out.push(entry.toLowerCase());
    }
  }
  return out;
}

function readList(path: string): string[] {
  return parseExchangeWallets(readFileSync(path, 'utf8'));
}

/**
 * The operator's list of known exchange hot wallets, spread into lib/env.ts's schema: a held payment is
 * never sent back to one (the payer's money would land in the exchange's pool, not their account), the
 * merchant sends the payer a claim link instead. Read at start; a change needs a restart.
 */
export const EXCHANGE_WALLET_ENV = {
  /** Addresses, comma- or space-separated (the same address on every EVM network). */
  KNOWN_EXCHANGE_WALLETS: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseExchangeWallets(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  /** A file with one address per line (`# label` comments allowed), for a list too long for a variable. */
  KNOWN_EXCHANGE_WALLETS_FILE: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (v === undefined || v === '') return;
      try {
        readList(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `cannot be used: ${(err as Error).message}` });
      }
    }),
};

const CACHE = new WeakMap<object, Set<string>>();

/** Both lists together, lowercase; built once per parsed environment. */
export function knownExchangeWallets(e: { KNOWN_EXCHANGE_WALLETS: string; KNOWN_EXCHANGE_WALLETS_FILE?: string }): Set<string> {
  let set = CACHE.get(e);
  if (!set) {
    set = new Set([
      ...parseExchangeWallets(e.KNOWN_EXCHANGE_WALLETS),
      ...(e.KNOWN_EXCHANGE_WALLETS_FILE ? readList(e.KNOWN_EXCHANGE_WALLETS_FILE) : []),
    ]);
    CACHE.set(e, set);
  }
  return set;
}
