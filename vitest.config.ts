import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    environment: 'node',
    include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts', 'db/**/*.test.ts'],
    globalSetup: ['lib/testing/global-setup.ts'],
    setupFiles: ['lib/testing/setup-hooks.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { APP_ENV: 'test', LOG_LEVEL: 'error', NEXT_TELEMETRY_DISABLED: '1' },
  },
});
