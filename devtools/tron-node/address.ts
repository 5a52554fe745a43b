import { utils } from 'tronweb';

/**
 * The stand-in's own TRON address forms (0x41 + 20 bytes; `T…` Base58Check, `41…` hex, `0x…` as TVM sees it).
 * A dev tool imports nothing from the gateway, so it converts with TronWeb itself; address.test.ts checks it
 * agrees with the gateway's codec (lib/chain/tron/address.ts).
 */
export function toHex41(addr: string): string {
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(addr)) {
    const bytes = utils.crypto.decode58Check(addr);
    if (!bytes || bytes.length !== 21 || bytes[0] !== 0x41) throw new Error(`not a TRON address: ${addr}`);
    return Buffer.from(bytes).toString('hex');
  }
  const h = addr.replace(/^0x/, '').toLowerCase();
  if (/^41[0-9a-f]{40}$/.test(h)) return h;
  if (/^[0-9a-f]{40}$/.test(h)) return `41${h}`;
  throw new Error(`not a TRON or 20-byte address: ${addr}`);
}

/** Any form → Base58Check `T…`. */
export const toBase58 = (addr: string): string => utils.crypto.getBase58CheckAddress(Array.from(Buffer.from(toHex41(addr), 'hex')));

/** Any form → `0x` + 20 bytes, lower case: what the TVM (anvil) sees. */
export const toEvm = (addr: string): `0x${string}` => `0x${toHex41(addr).slice(2)}`;
