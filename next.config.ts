import { networkInterfaces } from 'node:os';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants';

/**
 * Next's dev server serves its scripts only to origins it knows (localhost by default); a page
 * opened on 127.0.0.1 or the machine's LAN address never hydrated. Development only: production
 * has no such check.
 */
function devOrigins(): string[] {
  const own = Object.values(networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal)
    .map((i) => (i!.family === 'IPv6' ? `[${i!.address}]` : i!.address));
  return ['127.0.0.1', '[::1]', 'localhost', ...own];
}

const nextConfig: NextConfig = {
  // Native/wasm database drivers must be loaded by Node, not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres'],
  poweredByHeader: false,
  typedRoutes: false,
  allowedDevOrigins: devOrigins(),
  // The dev server logs each Server Function call with its arguments: sign-in and sign-up would
  // print passwords to the terminal. Off.
  logging: { serverFunctions: false },
  // forbidden(): the support console answers merchants with a real 403 page.
  experimental: { authInterrupts: true },
};

/**
 * Turbopack's dev cache in .next/ kept across a restart put every open page in a reload loop (about once a second,
 * "✓ Compiled in 2ms" each time) in scripts/dev-restart.test.ts, whatever the stack wrote; a start without it
 * (rm -rf .next) never looped. On, it also spent 16-26 s of CPU writing the cache after every compile on a loaded
 * 2-core VM (docs/performance.md, First minutes). So it is off, for `next dev` only: Next lists a flag set to false
 * as "⨯ turbopackFileSystemCacheForDev", which `npm run dev` drops (lib/dev/dev-output.ts) and `next build` (which
 * does not use it) never sees.
 */
export default function config(phase: string): NextConfig {
  if (phase !== PHASE_DEVELOPMENT_SERVER) return nextConfig;
  return { ...nextConfig, experimental: { ...nextConfig.experimental, turbopackFileSystemCacheForDev: false } };
}
