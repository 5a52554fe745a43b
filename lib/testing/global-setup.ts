import { closeDb, getDb, migrate } from '@/lib/db';
import { finishConformanceLog, startConformanceLog } from './conformance-report';
import { findSecretsInDatabase, ISSUED_SECRET_PATTERNS } from './secret-scan';

/** Tests always run against real PostgreSQL (scripts/test.ts creates a fresh database). */
export default async function setup() {
  if (!process.env.DATABASE_URL) {
    throw new Error('DATABASE_URL is not set: run tests with `npm test`, which creates a fresh PostgreSQL database');
  }
  await migrate();
  await closeDb();
  startConformanceLog();
  return teardown;
}

/**
 * After every suite: no API key or signing secret the run issued is stored in
 * clear anywhere in the database (issue 14: idempotent responses kept them for
 * 24 hours). The secrets themselves live in the test processes, so this looks
 * for their shapes (lib/testing/secret-scan.ts); lib/crypto/secrets-at-rest.test.ts
 * checks exact values, TOTP secrets and invitation tokens included. A hit fails the run.
 */
async function teardown() {
  const unchecked = finishConformanceLog();
  if (unchecked) process.exitCode = 1;
  try {
    const hits = await findSecretsInDatabase(await getDb(), { patterns: ISSUED_SECRET_PATTERNS });
    if (hits.length > 0) {
      const where = hits.map((h) => `${h.table}.${h.column} (${h.rows} rows)`).join(', ');
      // Vitest only logs an error thrown here ("error during close"): set the exit code so the run fails.
      process.exitCode = 1;
      throw new Error(`secrets stored in clear after the test run: ${where}`);
    }
  } finally {
    await closeDb();
  }
  if (unchecked) throw new Error(unchecked);
}
