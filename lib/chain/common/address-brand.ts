import type { ChainFamily } from '@/lib/config/rails';

declare const WIRE: unique symbol;
declare const STORED: unique symbol;

/**
 * What each family's two address forms look like as text. `0x…` on EVM is viem's `Address`, so a branded EVM
 * address goes to viem without a cast; TRON's never does.
 */
interface AddressShapes extends Record<ChainFamily, { wire: string; stored: string }> {
  evm: { wire: `0x${string}`; stored: `0x${string}` };
  tron: { wire: `T${string}`; stored: `41${string}` };
}

/**
 * An address in its family's wire form (EIP-55 `0x…`, Base58Check `T…`): what people type, nodes take and
 * withdrawals keep. Made only by the family's codec (lib/chain/<family>/address-codec.ts), so `tsc` refuses a
 * TRON address where an EVM one is expected and a string nobody parsed anywhere (issue 43 §2).
 * `WireAddress` alone is "any family's".
 */
export type WireAddress<F extends ChainFamily = ChainFamily> = F extends ChainFamily ? AddressShapes[F]['wire'] & { readonly [WIRE]: F } : never;

/** An address as the family's rows store it (lower-case `0x…`, `41…`): made only by the family's codec. */
export type StoredAddress<F extends ChainFamily = ChainFamily> = F extends ChainFamily
  ? AddressShapes[F]['stored'] & { readonly [STORED]: F }
  : never;

/** An EVM wire address: viem's `Address`, checked by the EVM codec. */
export type EvmAddress = WireAddress<'evm'>;
/** A TRON wire address, Base58Check `T…`. */
export type TronWireAddress = WireAddress<'tron'>;
/** A TRON stored address, lower-case `41…` hex. */
export type TronStoredAddress = StoredAddress<'tron'>;
/** A TRON address in either form: the TRON chain library takes both (lib/chain/tron/address.ts normalises them). */
export type TronAddress = TronWireAddress | TronStoredAddress;
