import { existsSync } from 'node:fs';

/**
 * `npm run dev` starts Next while its local chains are still starting (issue 45: Next's first compiles overlap the
 * chains' start instead of following it). It names a file in DEV_CHAINS_READY_FILE and writes it once every chain
 * answers and holds its tokens; until then the web process checks no rail and runs no worker (their first reads
 * would fail and say so). Resolves at once when the variable is unset (any other way of running the gateway).
 */
export async function localChainsReady(): Promise<void> {
  const file = process.env.DEV_CHAINS_READY_FILE;
  if (!file) return;
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 200));
}
