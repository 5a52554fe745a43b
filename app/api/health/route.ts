import { databaseReady } from '@/lib/db/gate';

// Liveness probe and the benchmarks' trivial baseline: no database, no auth. Under `npm run dev` it answers once the
// boot has migrated and seeded the database (lib/db/gate.ts), as it did when Next held every request until then.
export const dynamic = 'force-dynamic';

export async function GET() {
  await databaseReady();
  return Response.json({ ok: true });
}
