/** The `p`th percentile (0-100) of `xs`, nearest rank from below; `xs` must not be empty and is left unsorted. */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/**
 * The detection benches' latency figures (bench/detection.ts, bench/tron.ts), in ms: the payment's start
 * (the caller's prefix, e.g. `receipt -> `) -> invoice not PENDING median / p95 / max, and block appears ->
 * invoice.detected p50 / p90 / max. One wording, so the two benches' printouts compare line for line.
 */
export function detectionLatencies(toNotPending: number[], toDetected: number[]): string {
  const a = toNotPending;
  const d = toDetected;
  return (
    `invoice not PENDING median ${pct(a, 50)} ms, p95 ${pct(a, 95)} ms, max ${Math.max(...a)} ms; ` +
    `block appears -> invoice.detected p50 ${pct(d, 50)} ms, p90 ${pct(d, 90)} ms, max ${Math.max(...d)} ms`
  );
}
