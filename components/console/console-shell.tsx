import Link from 'next/link';
import type { ReactNode } from 'react';
import { consoleSignOutAction } from './actions';
import { MenuButton, NavDrawer, NavDrawerProvider } from '@/components/dashboard/nav-drawer';
import { NavLink } from '@/components/dashboard/nav-link';

const NAV = [
  { href: '/console', label: 'Search', exact: true },
  { href: '/console/dead-letters', label: 'Dead letters' },
  { href: '/console/stuck', label: 'Stuck work' },
  { href: '/console/held-payments', label: 'Held payments' },
  { href: '/console/screening', label: 'Screening review' },
  { href: '/console/solvency', label: 'Solvency' },
  { href: '/console/tenants', label: 'Tenants' },
  { href: '/console/audit', label: 'Audit log' },
];

/** The console frame: violet top border and header so nobody mistakes it for a merchant's dashboard. */
export function ConsoleShell({ email, children }: { email: string; children: ReactNode }) {
  return (
    <div className="min-h-screen border-t-4 border-violet-600">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
        <NavDrawerProvider>
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
            <Link href="/console" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
              <span className="grid h-7 w-7 place-items-center rounded-md bg-violet-600 text-xs text-white">₮</span>
              Support console
            </Link>
            <MenuButton controls="console-nav" className="ml-auto" />
            {/* Below md the links and the user fold under the menu button; from md up they share the header row. */}
            <NavDrawer
              id="console-nav"
              openClass="flex w-full flex-col gap-3 border-t border-slate-100 pt-2"
              closedClass="hidden"
              className="md:flex md:w-auto md:flex-1 md:flex-row md:flex-wrap md:items-center md:gap-x-6 md:gap-y-2 md:border-0 md:pt-0"
            >
              <nav aria-label="Console" className="flex flex-col gap-1 md:flex-row md:flex-wrap">
                {NAV.map((n) => (
                  <NavLink key={n.href} href={n.href} exact={n.exact}>
                    {n.label}
                  </NavLink>
                ))}
              </nav>
              <div className="flex min-w-0 items-center gap-3 px-3 text-sm text-slate-500 md:ml-auto md:px-0">
                <span data-testid="console-user" className="truncate">
                  {email}
                </span>
                <form action={consoleSignOutAction}>
                  <button type="submit" className="whitespace-nowrap font-medium text-slate-700 hover:underline">
                    Sign out
                  </button>
                </form>
              </div>
            </NavDrawer>
          </div>
        </NavDrawerProvider>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
