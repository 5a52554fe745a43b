import { redirect } from 'next/navigation';

// The page's old address (held payments had two names, docs/webhooks.md "Renamed"): bookmarks keep working.
export default async function OldHeldPaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = new URLSearchParams(Object.entries(await searchParams).filter((e): e is [string, string] => typeof e[1] === 'string'));
  redirect(params.size > 0 ? `/console/held-payments?${params}` : '/console/held-payments');
}
