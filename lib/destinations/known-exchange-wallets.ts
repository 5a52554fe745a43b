import { accountBytes } from '@/lib/chain/address-codecs';
import { exchangeWalletEntries } from '@/lib/config/exchange-wallets';

const CACHE = new WeakMap<object, Set<string>>();

/**
 * The operator's exchange hot wallets (lib/config/exchange-wallets.ts) as 20 bytes (lower-case `0x…`, the family
 * codecs'), so a `T…` entry and a TRON sender, or an `0x` entry and an EVM one, compare as one account whatever their
 * spelling (issue 42 §2: `T…` entries were refused). Built once per parsed environment; throws naming an entry whose
 * checksum is wrong (boot calls it, so such a list stops start-up).
 */
export function knownExchangeWallets(e: { KNOWN_EXCHANGE_WALLETS: string; KNOWN_EXCHANGE_WALLETS_FILE?: string }): Set<string> {
  let set = CACHE.get(e);
  if (!set) {
    set = new Set(
      exchangeWalletEntries(e).map((entry) => {
        try {
          return accountBytes(entry);
        } catch {
          throw new Error(`KNOWN_EXCHANGE_WALLETS: "${entry.slice(0, 60)}" is not an address of any network (0x… or T…, with a valid checksum)`);
        }
      }),
    );
    CACHE.set(e, set);
  }
  return set;
}
