import { getAddressDecoder, getAddressEncoder } from '@solana/kit';
import type { SolanaWireAddress, StoredAddress } from '../common/address-brand';
import { checkByteLength, type AddressCodec } from '../common/address-codec';
import { parseSolanaAddress } from './address';

// The Solana brands are made here and nowhere else.
const wire = (raw: string) => parseSolanaAddress(raw) as SolanaWireAddress;
const stored = (raw: string) => parseSolanaAddress(raw) as StoredAddress<'solana'>;
const toBase58 = (bytes: string) => getAddressDecoder().decode(Buffer.from(checkByteLength('solana', bytes, 32).slice(2), 'hex'));

/**
 * Solana: an account is a 32-byte public key; the wire form and the stored form are the same Base58 text, which is
 * canonical (one spelling per key), so rows compare as strings. In ADDRESS_CODECS since Solana is a chain family
 * (docs/solana.md).
 */
export const SOLANA_ADDRESS_CODEC: AddressCodec<'solana'> = {
  family: 'solana',
  byteLength: 32,
  parse: wire,
  parseStored: stored,
  accountBytes: (w) => checkByteLength('solana', `0x${Buffer.from(getAddressEncoder().encode(parseSolanaAddress(w))).toString('hex')}`, 32),
  storedForm: (bytes) => stored(toBase58(bytes)),
  wireForm: (bytes) => wire(toBase58(bytes)),
};
