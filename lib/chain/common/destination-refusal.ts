/**
 * Why a chain will not let an address receive a rail's token (FamilyOps.judgeDestination), each an API error code
 * (400, lib/api/errors.ts). Solana's destination rule (lib/chain/solana/destination-rule.ts) is the only one so far.
 */
export const DESTINATION_REFUSAL_CODES = [
  'not_associated_token_account',
  'token_account_other_mint',
  'token_account_frozen',
  'mint_account',
  'token_2022_account',
  'program_account',
  'program_owned_account',
  'off_curve_unknown',
  'invalid_address',
] as const;
export type DestinationRefusalCode = (typeof DESTINATION_REFUSAL_CODES)[number];
