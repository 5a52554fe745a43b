import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { databaseReady, gateDatabase } from './gate';

/*
 * Issue 45: under `npm run dev` Next serves and compiles its first pages while its boot still migrates and seeds the
 * database (lib/boot.ts bootBeforeRequests). A request's database read must wait for that boot, not run against a
 * database without its tables.
 */
describe('the database gate of a booting dev server', () => {
  afterAll(() => gateDatabase(Promise.resolve()));

  it('holds getDb until the boot is done, then lets every waiting read through; a failed boot opens it too', async () => {
    let booted!: () => void;
    gateDatabase(new Promise<void>((r) => (booted = r)));
    let got = false;
    const read = getDb().then(async (db) => {
      got = true;
      return db.execute(sql`select 1 as one`);
    });
    const health = databaseReady();
    // Let every pending step run (the database connection included): the read is still held.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(got).toBe(false);
    booted();
    await health;
    await read;
    expect(got).toBe(true);

    gateDatabase(Promise.reject(new Error('boot failed')));
    await expect(databaseReady()).resolves.toBeUndefined();
  });
});
