/** One fixed format (UTC) on server and client, so hydration never differs by time zone. */
export function formatTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return '—';
  const s = iso.replace('T', ' ');
  return `${withSeconds ? s.slice(0, 19) : s.slice(0, 16)} UTC`;
}

export function Time({ iso, withSeconds }: { iso: string | null | undefined; withSeconds?: boolean }) {
  return (
    <time dateTime={iso ?? undefined} className="tabular-nums">
      {formatTime(iso, withSeconds)}
    </time>
  );
}
