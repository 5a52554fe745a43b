/**
 * A capability a family's rail does not have yet (issue 49: Solana's watcher, sweep, withdrawal lane…): its table
 * entry throws this instead of answering, so nothing reads "nothing found" or "sent" from code that was never
 * built. A rail is not offered while one it needs is missing (lib/config/rails.ts `notOffered`).
 */
export class UnsupportedOnRailError extends Error {
  readonly code = 'not_supported_on_rail';
  constructor(
    readonly chain: string,
    readonly capability: string,
  ) {
    super(`${capability} is not supported on the ${chain} rail yet (docs/solana.md §6)`);
    this.name = 'UnsupportedOnRailError';
  }
}
