import { describe, expect, it } from 'vitest';
import type { Address as KitAddress } from '@solana/kit';
import type { Address as ViemAddress } from 'viem';
import type { AccountBytes, EvmAddress, SolanaWireAddress, StoredAddress, WireAddress } from '../common/address-brand';
import { ADDRESS_CODECS, storedForms } from '../address-codecs';
import { EVM_ADDRESS_CODEC } from '../evm/address-codec';
import { TRON_ADDRESS_CODEC } from '../tron/address-codec';
import { SOLANA_ADDRESS_CODEC } from './address-codec';

/**
 * Issue 49 §1: the address seam takes a family-defined byte length. A Solana key is 32 bytes, EVM's and TRON's
 * accounts 20; `tsc --noEmit` (which checks this file) refuses 32 bytes where a 20-byte codec takes them and a
 * Solana address where another family's is expected, and EVM and TRON keep their own types. Each `@ts-expect-error`
 * fails the type check if the line under it ever compiles (the two about rail families flip when Solana becomes one).
 */
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDC_MINT_BYTES = '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61';
const sol = SOLANA_ADDRESS_CODEC.parse(USDC_MINT);
const evm = EVM_ADDRESS_CODEC.parse('0x8ba1f109551bd432803012645ac136ddd64dba72');
const tron = TRON_ADDRESS_CODEC.parse('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');

const takesKit = (a: KitAddress) => a;
const takesViem = (a: ViemAddress) => a;
const takesEvm = (a: EvmAddress) => a;
const takesSolana = (a: SolanaWireAddress) => a;
const takesRailAddress = (a: WireAddress) => a;

describe('the address seam with a family-defined byte length (compile-time checks)', () => {
  it('types each family its own bytes and forms', () => {
    const checks = () => {
      // Each codec's bytes carry its length: EVM and TRON 20, Solana 32.
      const evmBytes: AccountBytes<20> = EVM_ADDRESS_CODEC.accountBytes(evm);
      const tronBytes: AccountBytes<20> = TRON_ADDRESS_CODEC.accountBytes(tron);
      const solBytes: AccountBytes<32> = SOLANA_ADDRESS_CODEC.accountBytes(sol);
      // EVM and TRON share an account: 20 bytes go from one codec to the other.
      TRON_ADDRESS_CODEC.wireForm(evmBytes);
      EVM_ADDRESS_CODEC.storedForm(tronBytes);
      // Configuration's checked `0x…` (20 bytes) still goes in.
      EVM_ADDRESS_CODEC.wireForm('0x8ba1f109551bd432803012645ac136ddd64dba72');
      // @ts-expect-error 32 bytes of a Solana key never reach a 20-byte codec
      EVM_ADDRESS_CODEC.storedForm(solBytes);
      // @ts-expect-error nor TRON's
      TRON_ADDRESS_CODEC.wireForm(solBytes);
      // @ts-expect-error and 20 bytes are no Solana key
      SOLANA_ADDRESS_CODEC.wireForm(evmBytes);
      // @ts-expect-error EVM bytes typed 32
      void (EVM_ADDRESS_CODEC.accountBytes(evm) satisfies AccountBytes<32>);

      // Forms: Solana's is @solana/kit's Address, as EVM's is viem's; neither reaches the other's library.
      takesKit(sol);
      takesViem(evm);
      takesSolana(SOLANA_ADDRESS_CODEC.wireForm(solBytes));
      // @ts-expect-error a Solana address cannot reach viem
      takesViem(sol);
      // @ts-expect-error a Solana address where an EVM one is expected
      takesEvm(sol);
      // @ts-expect-error an EVM address where a Solana one is expected
      takesSolana(evm);
      // @ts-expect-error a TRON address where a Solana one is expected
      takesSolana(tron);
      // @ts-expect-error a Base58 string nobody parsed is no Solana address
      takesSolana(USDC_MINT);
      // Solana is a chain family now: "any family's address" includes it, and its codec is in the table.
      takesRailAddress(sol);
      expect(ADDRESS_CODECS.solana).toBe(SOLANA_ADDRESS_CODEC);
      const row: StoredAddress<'solana'> = SOLANA_ADDRESS_CODEC.parseStored(USDC_MINT);
      return row;
    };
    expect(typeof checks).toBe('function');
  });
});

describe('the Solana address codec', () => {
  it('round-trips the 32 bytes; the wire form and the stored form are the same Base58 text', () => {
    expect(SOLANA_ADDRESS_CODEC.byteLength).toBe(32);
    expect(SOLANA_ADDRESS_CODEC.accountBytes(` ${USDC_MINT}`)).toBe(USDC_MINT_BYTES);
    expect(SOLANA_ADDRESS_CODEC.wireForm(SOLANA_ADDRESS_CODEC.accountBytes(USDC_MINT) as AccountBytes<32>)).toBe(USDC_MINT);
    expect(SOLANA_ADDRESS_CODEC.storedForm(USDC_MINT_BYTES as AccountBytes<32>)).toBe(USDC_MINT);
    expect(SOLANA_ADDRESS_CODEC.parseStored(USDC_MINT)).toBe(sol);
  });

  it('refuses another length at run time too, both ways', () => {
    const evmBytes = EVM_ADDRESS_CODEC.accountBytes(evm);
    expect(() => SOLANA_ADDRESS_CODEC.wireForm(evmBytes as string as AccountBytes<32>)).toThrow(/solana addresses are 32 bytes/);
    expect(() => EVM_ADDRESS_CODEC.storedForm(USDC_MINT_BYTES as AccountBytes<20>)).toThrow(/evm addresses are 20 bytes/);
    expect(() => TRON_ADDRESS_CODEC.wireForm(USDC_MINT_BYTES as AccountBytes<20>)).toThrow(/tron addresses are 20 bytes/);
    expect(() => SOLANA_ADDRESS_CODEC.parse('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toThrow();
    expect(() => SOLANA_ADDRESS_CODEC.parse(evm)).toThrow(/EVM/);
  });

  it("gives no 20-byte family a stored form of a Solana key (storedForms compares the family's length)", () => {
    expect(storedForms(USDC_MINT_BYTES)).toEqual([USDC_MINT]);
    expect(storedForms(EVM_ADDRESS_CODEC.accountBytes(evm))).toEqual([
      evm.toLowerCase(),
      TRON_ADDRESS_CODEC.storedForm(EVM_ADDRESS_CODEC.accountBytes(evm)),
    ]);
  });
});
