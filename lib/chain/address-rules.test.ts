import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { CHAINS, CHAIN_SPECS, type ChainKey } from '@/lib/config/rails';
import { parseAddressOn } from '@/lib/destinations/check-destination';
import { ADDRESS_RULES, addressFamilyOf, addressProblem, addressRuleOf } from './address-rules';

const serverProblem = (chain: ChainKey, raw: string) => {
  try {
    parseAddressOn({ chain }, raw, 'destinationAddress');
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err.details?.[0]?.message ?? err.message;
  }
};

/*
 * Issue 43: the dashboard refused a T… address on a TRON rail ("must be 0x followed by 40 hex characters") while the
 * server refused the 0x one. Every form now takes its network's rule from the family, and the server's format check
 * is the same rule: on every network of the table, the family's own example passes both, the other family's is
 * refused by both with the same words, naming the form and the network.
 */
describe('address rules by family', () => {
  it.each(CHAINS)('%s: its own form passes the form check and the server; the other family is named and refused alike', (chain) => {
    const rule = addressRuleOf(chain);
    expect(rule.family).toBe(CHAIN_SPECS[chain].family);
    expect(addressProblem(chain, rule.example)).toBeNull();
    expect(addressProblem(chain, ` ${rule.example} `)).toBeNull();
    expect(serverProblem(chain, rule.example)).toBeNull();
    for (const other of Object.values(ADDRESS_RULES).filter((r) => r.family !== rule.family)) {
      const words = `is ${other.family === 'evm' ? 'an' : 'a'} ${other.name} address; ${CHAIN_SPECS[chain].name} takes ${rule.name} addresses`;
      expect(addressProblem(chain, other.example)).toBe(words);
      expect(serverProblem(chain, other.example)).toBe(words);
    }
    expect(addressProblem(chain, '0x1234')).toBe(`must be ${rule.shape}`);
    expect(serverProblem(chain, '0x1234')).toBe(`must be ${rule.shape}`);
  });

  it('tells the family of an address by its form, and none for anything else', () => {
    expect(addressFamilyOf(ADDRESS_RULES.evm.example)).toBe('evm');
    expect(addressFamilyOf(ADDRESS_RULES.tron.example)).toBe('tron');
    expect(addressFamilyOf('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBeUndefined();
    expect(addressFamilyOf('hello')).toBeUndefined();
  });
});
