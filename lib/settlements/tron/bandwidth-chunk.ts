import type { TronStake } from '@/lib/chain/tron/stake';

const SUN = 1_000_000n;
/**
 * Bandwidth the energy wallet's own transactions of one sweep take: activate, delegate and, later, undelegate
 * (each ~200–280 bytes plus 64 of result as java-tron bills them), rounded up.
 */
export const ENERGY_WALLET_BYTES_PER_SWEEP = 1_000;
/** Staked bandwidth is topped up when what is left today covers fewer sweeps than this. */
const LOW_SWEEPS = 20;
/** A bandwidth stake covers this many sweeps a day (bandwidth recovers over 24 h, like energy). */
const CHUNK_SWEEPS = 100;

/**
 * Sun the energy wallet should stake for BANDWIDTH now, or 0: java-tron pays a transaction's bytes from staked
 * bandwidth first, then the free 600 a day, then burns 1,000 sun a byte, and an account creation burns 0.1 TRX
 * unless staked bandwidth covers it. Without a stake, a sweep's three energy-wallet transactions burned ~0.56 TRX
 * (issue 44: 1.66 TRX per sweep, 1.10 of it the activation). Staked in chunks of CHUNK_SWEEPS sweeps, one chunk
 * in flight at a time, at most half of what the wallet may stake beyond other plans' stakes (the rest pays
 * activations). `stakeable` is that TRX; `inFlight` the bandwidth other plans are staking now.
 */
export function bandwidthChunk(stake: TronStake, inFlight: bigint, stakeable: bigint): bigint {
  if (inFlight > 0n || !(stake.bytesPerTrx > 0)) return 0n;
  if (stake.netLimit - stake.netUsed >= LOW_SWEEPS * ENERGY_WALLET_BYTES_PER_SWEEP) return 0n;
  const want = BigInt(Math.ceil((CHUNK_SWEEPS * ENERGY_WALLET_BYTES_PER_SWEEP) / stake.bytesPerTrx)) * SUN;
  const half = ((stakeable > 0n ? stakeable : 0n) / 2n / SUN) * SUN;
  const sun = want < half ? want : half;
  return sun >= SUN ? sun : 0n;
}
