import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * One entry's characters (an address of any family is 34 to 42 letters and digits): the environment is read below
 * lib/chain, so whether an entry is an address of a family, its checksum and its 20 bytes are the family codecs' to
 * say (lib/destinations/known-exchange-wallets.ts, run at boot, so a bad entry still stops start-up).
 */
const ADDRESS = /^[0-9A-Za-z]{34,42}$/;

/**
 * Reads an exchange wallet list: addresses (`0x…`, `T…`) separated by commas, spaces or new lines; `#` starts a
 * comment (a label) to the end of its line. Throws naming the first entry that has no address's shape. Returns
 * the entries as written.
 */
export function parseExchangeWallets(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const entry of line
      .replace(/#.*/, '')
      .split(/[\s,]+/)
      .filter(Boolean)) {
      if (!ADDRESS.test(entry)) throw new Error(`"${entry.slice(0, 60)}" is not an address (0x… or T…)`);
      out.push(entry);
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
  /** Addresses (`0x…`, `T…`), comma- or space-separated (an `0x` one is the same on every EVM network). */
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

/** Both lists' entries together, as written (lib/destinations/known-exchange-wallets.ts compares them). */
export function exchangeWalletEntries(e: { KNOWN_EXCHANGE_WALLETS: string; KNOWN_EXCHANGE_WALLETS_FILE?: string }): string[] {
  return [...parseExchangeWallets(e.KNOWN_EXCHANGE_WALLETS), ...(e.KNOWN_EXCHANGE_WALLETS_FILE ? readList(e.KNOWN_EXCHANGE_WALLETS_FILE) : [])];
}
