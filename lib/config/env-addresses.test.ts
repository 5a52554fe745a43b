import { describe, expect, it } from 'vitest';
import { EVM_ADDRESS_RULE } from '@/lib/chain/evm/address-rule';
import { toEvm } from '@/lib/chain/tron/address';
import { TRON_ADDRESS_RULE } from '@/lib/chain/tron/address-rule';
import { ENV_ADDRESS } from './env-addresses';

/* lib/config cannot import the chain adapter, so each family's configuration syntax is its own: it must agree with the family's address rule. */
describe("ENV_ADDRESS: each family's addresses as configuration takes them", () => {
  it("EVM: the address rule's pattern, kept as written", () => {
    expect(ENV_ADDRESS.evm.parse(EVM_ADDRESS_RULE.example)).toBe(EVM_ADDRESS_RULE.example);
    expect(ENV_ADDRESS.evm.safeParse(TRON_ADDRESS_RULE.example).success).toBe(false);
    expect(ENV_ADDRESS.evm.safeParse('0x1234').error?.issues[0]?.message).toBe('must be a 0x-prefixed 20-byte hex address');
  });

  it('TRON: T… (checksum checked) or 20-byte hex, kept as the 20 bytes the adapter reads', () => {
    expect(ENV_ADDRESS.tron.parse(TRON_ADDRESS_RULE.example)).toBe(toEvm(TRON_ADDRESS_RULE.example));
    expect(ENV_ADDRESS.tron.parse(` ${EVM_ADDRESS_RULE.example} `)).toBe(EVM_ADDRESS_RULE.example.toLowerCase());
    const badChecksum = `${TRON_ADDRESS_RULE.example.slice(0, -1)}${TRON_ADDRESS_RULE.example.endsWith('6') ? '7' : '6'}`;
    expect(ENV_ADDRESS.tron.safeParse(badChecksum).error?.issues[0]?.message).toBe(
      'must be a TRON address (T…, checksum valid) or 0x-prefixed 20-byte hex',
    );
  });
});
