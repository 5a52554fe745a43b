import { describe, expect, it } from 'vitest';
import { explorerAddressUrl, explorerTxUrl } from './explorer';

describe('block explorer links', () => {
  it('link TRON transactions and addresses to Tronscan (hash-routed, no 0x), EVM ones as before', () => {
    const id = 'a'.repeat(64);
    expect(explorerTxUrl(728126428, `0x${id}`)).toBe(`https://tronscan.org/#/transaction/${id}`);
    expect(explorerTxUrl(3448148188, id)).toBe(`https://nile.tronscan.org/#/transaction/${id}`);
    expect(explorerAddressUrl(728126428, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      'https://tronscan.org/#/address/TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(explorerTxUrl(56, `0x${id}`)).toBe(`https://bscscan.com/tx/0x${id}`);
    expect(explorerAddressUrl(137, '0x8ba1f109551bD432803012645Ac136ddd64DBA73')).toBe(
      'https://polygonscan.com/address/0x8ba1f109551bD432803012645Ac136ddd64DBA73',
    );
  });

  it('give local chains (anvil, the TRON stand-in) no link', () => {
    expect(explorerTxUrl(31337, '0x01')).toBeNull();
    expect(explorerAddressUrl(1157476431, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
  });
});
