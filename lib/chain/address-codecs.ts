import type { ChainFamily } from '@/lib/config/rails';
import { addressFamilyOf } from './address-rules';
import type { StoredAddress, WireAddress } from './common/address-brand';
import type { AddressCodec } from './common/address-codec';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import { SOLANA_ADDRESS_CODEC } from './solana/address-codec';
import { TRON_ADDRESS_CODEC } from './tron/address-codec';

/**
 * Each family's address codec (server only: it needs the families' encoders, unlike address-rules.ts, which client
 * forms import). One account has one spelling per family; lists and refusals compare the bytes (issue 42 §2:
 * a `T…` exchange wallet was refused by the list's parser, and the `0x` form of a TRON deposit address passed the
 * deposit-address refusal, which compared stored strings).
 */
export const ADDRESS_CODECS: { [F in ChainFamily]: AddressCodec<F> } = {
  evm: EVM_ADDRESS_CODEC,
  tron: TRON_ADDRESS_CODEC,
  solana: SOLANA_ADDRESS_CODEC,
};

/** The bytes (lower-case `0x…`: 20, or a Solana key's 32) of a wire address of any family; throws when `raw` is no family's address. */
export function accountBytes(raw: string): `0x${string}` {
  const family = addressFamilyOf(raw);
  if (!family) throw new Error(`"${raw.slice(0, 60)}" is not an address of any chain family`);
  return ADDRESS_CODECS[family].accountBytes(raw.trim());
}

/**
 * Every family's stored form of one account: what a row of any family holds for it. Only the families whose
 * accounts have as many bytes (20: EVM and TRON share an account; a 32-byte Solana key is no other family's).
 */
export const storedForms = (bytes: `0x${string}`): StoredAddress[] =>
  Object.values(ADDRESS_CODECS)
    .filter((c) => bytes.length === 2 + 2 * c.byteLength)
    .map((c) => c.storedForm(bytes));

/** A wire address of whichever family's form it has, parsed by that family's codec; throws when it is none. */
export function parseWireAddress(raw: string): WireAddress {
  const family = addressFamilyOf(raw);
  if (!family) throw new Error(`"${raw.slice(0, 60)}" is not an address of any chain family`);
  return ADDRESS_CODECS[family].parse(raw.trim());
}
