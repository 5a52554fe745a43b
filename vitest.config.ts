import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    environment: 'node',
    include: ['lib/**/*.test.ts', 'devtools/**/*.test.ts', 'examples/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts', 'db/**/*.test.ts'],
    globalSetup: ['lib/testing/global-setup.ts'],
    setupFiles: ['lib/testing/setup-hooks.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // next-auth imports 'next/server' without an extension; inlined, Vite resolves it as Next does.
    server: { deps: { inline: ['next-auth'] } },
    // Tests read the checkout status right after changing it: no cache (lib/checkout/status-poll.test.ts turns it on).
    env: { APP_ENV: 'test', LOG_LEVEL: 'error', NEXT_TELEMETRY_DISABLED: '1', CHECKOUT_STATUS_CACHE_MS: '0' },
  },
});
