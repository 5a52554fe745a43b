import { closeDb, migrate } from '@/lib/db';

/** Tests always run against real PostgreSQL (scripts/test.ts creates a fresh database). */
export default async function setup() {
  if (!process.env.DATABASE_URL) {
    throw new Error('DATABASE_URL is not set: run tests with `npm test`, which creates a fresh PostgreSQL database');
  }
  await migrate();
  await closeDb();
}
