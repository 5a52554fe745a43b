import { CHAIN_SPECS, type ChainFamily, type ChainKey } from '@/lib/config/rails';
import type { AddressRule } from './common/address-rule';
import { EVM_ADDRESS_RULE } from './evm/address-rule';
import { SOLANA_ADDRESS_RULE } from './solana/address-rule';
import { TRON_ADDRESS_RULE } from './tron/address-rule';

export type { AddressRule };

/** Each family's address rule: the one table the forms, the checkout and the server's format check read. */
export const ADDRESS_RULES: Record<ChainFamily, AddressRule> = { evm: EVM_ADDRESS_RULE, tron: TRON_ADDRESS_RULE, solana: SOLANA_ADDRESS_RULE };

/** The address rule of a network (by its family). */
export const addressRuleOf = (chain: ChainKey): AddressRule => ADDRESS_RULES[CHAIN_SPECS[chain].family];

/** The family whose address form `raw` has, or undefined when it has none of them. */
export function addressFamilyOf(raw: string): ChainFamily | undefined {
  const s = raw.trim();
  return Object.values(ADDRESS_RULES).find((r) => r.pattern.test(s))?.family;
}

/** The transaction id rule of the family whose id form `raw` has (the console's search), or undefined. */
export function txIdRuleOf(raw: string): AddressRule['txId'] | undefined {
  const s = raw.trim();
  return Object.values(ADDRESS_RULES).find((r) => r.txId.pattern.test(s))?.txId;
}

/**
 * Why `raw` cannot be an address on `chain`, after "The address …" (null: it has the right form). Another
 * family's address is named as such, since a person who pasted one picked the wrong wallet or network, not a typo.
 */
export function addressProblem(chain: ChainKey, raw: string): string | null {
  const rule = addressRuleOf(chain);
  const s = raw.trim();
  if (rule.pattern.test(s)) return null;
  const other = addressFamilyOf(s);
  if (other)
    return `is ${article(ADDRESS_RULES[other].name)} ${ADDRESS_RULES[other].name} address; ${CHAIN_SPECS[chain].name} takes ${rule.name} addresses`;
  return `must be ${rule.shape}`;
}

/** "an EVM", "a TRON", "a Solana": an initialism is read letter by letter (a vowel letter takes "an"), a word as a word. */
export const article = (name: string): 'a' | 'an' => (/^(?:[AEFHILMNORSX][A-Z]|[AEIOU][a-z])/.test(name) ? 'an' : 'a');
