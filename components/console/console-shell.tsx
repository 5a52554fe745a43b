import Link from 'next/link';
import type { ReactNode } from 'react';
import { consoleSignOutAction } from './actions';
import { NavLink } from '@/components/dashboard/nav-link';

const NAV = [
  { href: '/console', label: 'Search', exact: true },
  { href: '/console/dead-letters', label: 'Dead letters' },
  { href: '/console/stuck', label: 'Stuck work' },
  { href: '/console/held-payments', label: 'Held payments' },
  { href: '/console/solvency', label: 'Solvency' },
  { href: '/console/tenants', label: 'Tenants' },
  { href: '/console/audit', label: 'Audit log' },
];

/** The console frame: violet top border and header so nobody mistakes it for a merchant's dashboard. */
export function ConsoleShell({ email, children }: { email: string; children: ReactNode }) {
  return (
    <div className="min-h-screen border-t-4 border-violet-600">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-6 py-3">
          <Link href="/console" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            <span className="grid h-7 w-7 place-items-center rounded-md bg-violet-600 text-xs text-white">₮</span>
            Support console
          </Link>
          <nav aria-label="Console" className="flex flex-wrap gap-1">
            {NAV.map((n) => (
              <NavLink key={n.href} href={n.href} exact={n.exact}>
                {n.label}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-500">
            <span data-testid="console-user">{email}</span>
            <form action={consoleSignOutAction}>
              <button type="submit" className="font-medium text-slate-700 hover:underline">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-6 py-8">
        {children}
      </main>
    </div>
  );
}
