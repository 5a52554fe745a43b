import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native/wasm database drivers must be loaded by Node, not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres'],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden(): the support console answers merchants with a real 403 page.
  experimental: { authInterrupts: true },
};

export default nextConfig;
