/**
 * Under `npm run dev` Next serves (and compiles) its first pages while its boot waits for the embedded database to
 * open, migrate and seed (issue 45: the first page's compile used to wait for all of that). Until the boot has done
 * so, every database read of a request waits here (lib/db getDb); lib/boot.ts closes the gate, nothing else does.
 * One per process, shared by every module graph Next creates. No imports: /api/health waits here too.
 */
const gateKey = Symbol.for('gateway.dbGate');
type G = typeof globalThis & { [gateKey]?: Promise<void> };

/** Resolves once the boot has migrated and seeded the database (at once when nothing gated it). */
export function databaseReady(): Promise<void> {
  return (globalThis as G)[gateKey] ?? Promise.resolve();
}

/** lib/boot.ts: requests' database reads wait for `ready`; a failed boot opens the gate (its error is logged there). */
export function gateDatabase(ready: Promise<unknown>): void {
  (globalThis as G)[gateKey] = ready.then(
    () => {},
    () => {},
  );
}
