import { defineConfig } from '@trigger.dev/sdk';

// Production runs jobs/ on Trigger.dev (cloud or self-hosted); locally `npm run worker`
// runs the same lib/ functions on the same schedules (lib/jobs/registry.ts).
export default defineConfig({
  project: process.env.TRIGGER_PROJECT_REF ?? 'proj_gateway',
  dirs: ['./jobs'],
  runtime: 'node',
  maxDuration: 300,
  retries: {
    enabledInDev: false,
    default: { maxAttempts: 3, minTimeoutInMs: 1_000, maxTimeoutInMs: 30_000, factor: 2 },
  },
});
