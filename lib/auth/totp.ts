import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PRODUCT_NAME } from '@/lib/config/product';

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s), what every authenticator app speaks. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_S = 30;

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(s: string): Buffer {
  const clean = s.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = ALPHABET.indexOf(ch);
    if (idx < 0) throw new Error('invalid base32');
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

function hotp(key: Buffer, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

export function totpCode(secret: string, now = Date.now()): string {
  return hotp(base32Decode(secret), Math.floor(now / 1000 / STEP_S));
}

/** The time step whose code `code` is: the current one or one either side (clock drift); null when none. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const c = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(c)) return null;
  const key = base32Decode(secret);
  const counter = Math.floor(now / 1000 / STEP_S);
  for (const d of [-1, 0, 1]) if (timingSafeEqual(Buffer.from(hotp(key, counter + d)), Buffer.from(c))) return counter + d;
  return null;
}

/** Whether `code` is valid now. Accepting it for sign-in or a change goes through claimTotpCode, which refuses reuse. */
export function verifyTotp(secret: string, code: string, now = Date.now()): boolean {
  return totpStep(secret, code, now) !== null;
}

export function otpauthUri(secret: string, email: string, issuer = PRODUCT_NAME): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${STEP_S}`;
}
