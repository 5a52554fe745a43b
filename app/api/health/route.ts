// Liveness probe and the benchmarks' trivial baseline: no database, no auth.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ ok: true });
}
