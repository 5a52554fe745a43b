import { randomBytes } from 'node:crypto';
import type { SimCurrency } from './currencies';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const pick = (n: number, alphabet: string) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');

/** A deposit address of the right shape for an off-chain-simulated network (never spendable). */
export function fakeAddress(c: SimCurrency): string {
  switch (c.addr) {
    case 'evm':
      return `0x${randomBytes(20).toString('hex')}`;
    case 'btc':
      return `bc1q${pick(38, BECH)}`;
    case 'ltc':
      return `ltc1q${pick(38, BECH)}`;
    case 'trx':
      return `T${pick(33, B58)}`;
    case 'sol':
      return pick(44, B58);
    case 'xrp':
      return `r${pick(33, B58)}`;
    case 'bech':
      return `${c.coin.toLowerCase()}1${pick(50, BECH)}`;
    default:
      return pick(40, B58);
  }
}
