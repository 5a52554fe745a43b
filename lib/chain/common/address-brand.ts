import type { Address as SolanaKitAddress } from '@solana/kit';
import type { ChainFamily } from '@/lib/config/rails';

declare const WIRE: unique symbol;
declare const STORED: unique symbol;
declare const BYTES: unique symbol;

/**
 * What each family's two address forms look like as text, and how many bytes name an account. `0x…` on EVM is
 * viem's `Address`, so a branded EVM address goes to viem without a cast; TRON's never does; Solana's is
 * @solana/kit's `Address`. EVM and TRON name an account by the same 20 bytes; Solana by a 32-byte public key
 * (issue 49), Base58 on the wire and in rows. Solana is an address family before it is a rail family
 * (`ChainFamily`): its codec exists, its rails do not yet (docs/solana.md §4).
 */
interface AddressShapes extends Record<ChainFamily, { wire: string; stored: string; bytes: number }> {
  evm: { wire: `0x${string}`; stored: `0x${string}`; bytes: 20 };
  tron: { wire: `T${string}`; stored: `41${string}`; bytes: 20 };
  solana: { wire: SolanaKitAddress; stored: SolanaKitAddress; bytes: 32 };
}

/** Every family with an address codec: the rail families (`ChainFamily`) and those whose rail is being built. */
export type AddressFamily = keyof AddressShapes;

/** How many bytes name an account of the family (20 on EVM and TRON, 32 on Solana). */
export type ByteLength<F extends AddressFamily> = AddressShapes[F]['bytes'];

/**
 * An account's bytes as lower-case `0x…` hex, tagged with their length: the codec of a family makes them
 * (`accountBytes`) and takes only its own length back (`storedForm`, `wireForm`), so 32 bytes of a Solana key never
 * reach a 20-byte family's encoder at compile time. The tag is optional so that configuration's `0x…` (20 bytes,
 * checked by its schema) still goes in; the codec checks the length at run time too.
 */
export type AccountBytes<N extends number = number> = `0x${string}` & { readonly [BYTES]?: N };

/**
 * An address in its family's wire form (EIP-55 `0x…`, Base58Check `T…`): what people type, nodes take and
 * withdrawals keep. Made only by the family's codec (lib/chain/<family>/address-codec.ts), so `tsc` refuses a
 * TRON address where an EVM one is expected and a string nobody parsed anywhere (issue 43 §2).
 * `WireAddress` alone is "any family's".
 */
export type WireAddress<F extends AddressFamily = ChainFamily> = F extends AddressFamily ? AddressShapes[F]['wire'] & { readonly [WIRE]: F } : never;

/** An address as the family's rows store it (lower-case `0x…`, `41…`): made only by the family's codec. */
export type StoredAddress<F extends AddressFamily = ChainFamily> = F extends AddressFamily
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
/** A Solana address (a 32-byte public key, Base58), made by lib/chain/solana/address-codec.ts. */
export type SolanaWireAddress = WireAddress<'solana'>;
