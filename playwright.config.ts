import { defineConfig } from '@playwright/test';
import { STACK_PORT, stackEnv } from './e2e/support/stack-env';

// Two `next start` processes of the production build share one PostgreSQL
// (DATABASE_URL from scripts/test.ts), as two app instances behind a balancer would.
// E2E_APP_PORT moves both (and E2E_STACK_PORT, E2E_ANVIL_PORT… the rest) when another run holds the defaults.
const FIRST_PORT = Number(process.env.E2E_APP_PORT ?? 3101);
const PORTS = [FIRST_PORT, FIRST_PORT + 1];
const serverEnv = {
  ...process.env,
  APP_ENV: 'test',
  WORKER_INLINE: 'false',
  NEXT_TELEMETRY_DISABLED: '1',
  LOG_LEVEL: 'warn',
  // Every spec signs up from 127.0.0.1: the per-address sign-up limit (10 an hour by default) would stop the suite.
  SIGNUP_ADDRESS_LIMIT: '1000',
  // The dashboard flow's chain, worker and webhook settings (e2e/support/stack-env.ts).
  ...stackEnv(),
} as Record<string, string>;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  // One retry in CI: a slow shared machine can miss a UI wait; a real failure fails twice.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORTS[0]}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    // First (web servers start in order): anvil and the job worker, which also migrates the database.
    {
      command: 'node --import tsx e2e/support/stack.ts',
      url: `http://127.0.0.1:${STACK_PORT}/health`,
      env: serverEnv,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    ...PORTS.map((port) => ({
      command: `node_modules/.bin/next start -H 127.0.0.1 -p ${port}`,
      url: `http://127.0.0.1:${port}/api/health`,
      env: serverEnv,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
  ],
});

export const APP_PORTS = PORTS;
