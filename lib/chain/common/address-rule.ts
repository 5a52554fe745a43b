import type { ChainFamily } from '@/lib/config/rails';

/**
 * What a person typing an address needs to know about one chain family's addresses: the form fields' placeholder,
 * pattern and messages, all from the family (lib/chain/address-rules.ts looks them up by network). Format only:
 * the server still parses every address for real (checksum, ours, blacklist: lib/destinations/check-destination.ts).
 * Plain data and regular expressions, so client components can import it without a chain library.
 */
export interface AddressRule {
  family: ChainFamily;
  /** The shape of a wire address, anchored: a value passing it is worth sending to the server. */
  pattern: RegExp;
  /** The input's placeholder: "0x…", "T…". */
  placeholder: string;
  /** A well-formed address of the family (an example in hints and docs; nobody's wallet that we know of). */
  example: string;
  /** The address form as a person names it: "EVM (0x…)", "TRON (T…)". */
  name: string;
  /** What every address of the family looks like, after "must be": "0x followed by 40 hex characters". */
  shape: string;
  /** True when letter case is presentation only (EVM's EIP-55 checksum): two spellings differing in case are one address. */
  caseInsensitive: boolean;
  /**
   * A transaction id of the family as a person pastes one (the console's search): its anchored shape, and whether
   * its case is presentation only (hex) or part of it (Base58).
   */
  txId: { pattern: RegExp; caseInsensitive: boolean };
}
