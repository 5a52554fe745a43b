import { describe, expect, it } from 'vitest';
import { TronWeb } from 'tronweb';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { TronAddressError, isTronAddress, parseTronAddress, toBase58, toEvm } from './address';
import { tronDepositKey } from './deposit-key';

describe('TRON deposit keys', () => {
  it("derives m/44'/195'/0'/0/i as TronWeb does for the dev mnemonic's first indexes", () => {
    for (let i = 0; i < 5; i++) {
      const ours = tronDepositKey(DEV_MNEMONIC, i);
      const theirs = TronWeb.fromMnemonic(DEV_MNEMONIC, `m/44'/195'/0'/0/${i}`);
      expect(ours.address).toBe(theirs.address);
      expect(`0x${ours.privateKey}`).toBe(theirs.privateKey);
      expect(ours.hex).toBe(TronWeb.address.toHex(theirs.address).toLowerCase());
    }
    // The vector docs/tron.md computed with viem's HDKey.
    expect(tronDepositKey(DEV_MNEMONIC, 0).address).toBe('TWer2Ygk5TEheHp3TPuYeqxmB6SsGZmaL6');
  });
});

describe('TRON addresses', () => {
  it('parses Base58Check T… addresses to the stored 41… form and back', () => {
    expect(parseTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(toBase58('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(toEvm('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
  });

  it('says a 0x address is an EVM address', () => {
    const err = (() => {
      try {
        parseTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TronAddressError);
    expect(err).toMatchObject({ code: 'evm_address', message: expect.stringMatching(/EVM \(0x\) address/) });
  });

  it('refuses a bad checksum, another Base58Check version, garbage and the zero address', () => {
    expect(() => parseTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toThrow(/bad checksum/);
    expect(() => parseTronAddress('1BoatSLRHtKNngkdXEeobR76b53LETtpyT')).toThrow(/not a TRON address/);
    expect(() => parseTronAddress('hello')).toThrow(/not a TRON address/);
    expect(() => parseTronAddress('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toThrow(TronAddressError);
    expect(isTronAddress('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBe(true);
    expect(isTronAddress('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe(false);
  });
});
