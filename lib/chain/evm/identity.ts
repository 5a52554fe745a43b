/** An EVM account's identity: its 20 bytes as lower-case `0x…`, the same on every EVM network; null when `raw` is not one. */
export function evmIdentity(raw: string): string | null {
  const s = raw.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(s) ? s.toLowerCase() : null;
}
