/**
 * Waits `ms` (negative counts as 0) or until `signal` aborts, whichever comes
 * first; never rejects, so loops check `signal.aborted` themselves. An already
 * aborted signal resolves at once (an abort listener added then would never fire).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => (clearTimeout(t), resolve());
    const t = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
