import Link from 'next/link';
import { buttonClass } from './button';

/** Prev/next links that keep every other search parameter, so the page lives in the URL. */
export function Pagination({
  basePath,
  params,
  page,
  lastPage,
  total,
}: {
  basePath: string;
  params: Record<string, string | undefined>;
  page: number;
  lastPage: number;
  total: number;
}) {
  const href = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v && k !== 'page') q.set(k, v);
    if (p > 1) q.set('page', String(p));
    const s = q.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  return (
    <nav className="flex items-center justify-between px-4 py-3 text-sm text-slate-600" aria-label="Pagination">
      <span>
        {total} result{total === 1 ? '' : 's'} · page {page} of {lastPage}
      </span>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page - 1)} rel="prev">
            Previous
          </Link>
        ) : (
          <span className={`${buttonClass('secondary', 'sm')} opacity-50`} aria-disabled="true">
            Previous
          </span>
        )}
        {page < lastPage ? (
          <Link className={buttonClass('secondary', 'sm')} href={href(page + 1)} rel="next">
            Next
          </Link>
        ) : (
          <span className={`${buttonClass('secondary', 'sm')} opacity-50`} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}
