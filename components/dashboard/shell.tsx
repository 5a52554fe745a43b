import Link from 'next/link';
import type { ReactNode } from 'react';
import { signOutAction } from './actions';
import { ModeSwitch } from './mode-switch';
import { NavLink } from './nav-link';

const NAV = [
  { href: '/dashboard', label: 'Home', exact: true },
  { href: '/dashboard/invoices', label: 'Invoices' },
  { href: '/dashboard/balance', label: 'Balance & withdrawals' },
  { href: '/dashboard/api-keys', label: 'API keys' },
  { href: '/dashboard/webhooks', label: 'Webhooks', exact: true },
  { href: '/dashboard/webhooks/deliveries', label: 'Webhook deliveries' },
  { href: '/dashboard/products', label: 'Products' },
  { href: '/dashboard/orders', label: 'Orders' },
  { href: '/dashboard/payment-links', label: 'Payment links' },
  { href: '/dashboard/settings', label: 'Settings' },
];

export function Shell({
  tenantName,
  email,
  role,
  mode,
  children,
}: {
  tenantName: string;
  email: string;
  role: string;
  mode: 'live' | 'test';
  children: ReactNode;
}) {
  const test = mode === 'test';
  return (
    <div className={`min-h-screen ${test ? 'border-t-4 border-amber-500' : 'border-t-4 border-transparent'}`}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="flex">
        <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col border-r border-slate-200 bg-white px-3 py-4 md:flex">
          <Link href="/dashboard" className="mb-6 flex items-center gap-2 px-3 text-sm font-semibold text-slate-900">
            <span className="grid h-7 w-7 place-items-center rounded-md bg-indigo-600 text-xs text-white">₮</span>
            <span className="truncate" data-testid="tenant-name">
              {tenantName}
            </span>
          </Link>
          <nav aria-label="Dashboard" className="space-y-0.5">
            {NAV.map((n) => (
              <NavLink key={n.href} href={n.href} exact={n.exact}>
                {n.label}
              </NavLink>
            ))}
          </nav>
          <div className="mt-auto border-t border-slate-100 px-3 pt-3 text-xs text-slate-500">
            <p className="truncate" title={email}>
              {email}
            </p>
            <p className="capitalize">{role}</p>
            <form action={signOutAction} className="mt-2">
              <button type="submit" className="text-sm font-medium text-slate-700 hover:text-slate-900 hover:underline">
                Sign out
              </button>
            </form>
          </div>
        </aside>
        <div className="min-w-0 flex-1">
          <header className="sticky top-0 z-20 flex h-14 items-center justify-between gap-4 border-b border-slate-200 bg-white/95 px-6 backdrop-blur">
            <div className="flex items-center gap-3">
              {test ? (
                <span
                  data-testid="test-mode-banner"
                  className="rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-amber-800"
                >
                  Test data
                </span>
              ) : (
                <span className="rounded bg-emerald-50 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-emerald-700">Live</span>
              )}
              <nav aria-label="Dashboard (mobile)" className="flex gap-3 text-sm md:hidden">
                {NAV.slice(0, 4).map((n) => (
                  <Link key={n.href} href={n.href} className="text-slate-600">
                    {n.label}
                  </Link>
                ))}
              </nav>
            </div>
            <ModeSwitch mode={mode} />
          </header>
          <main id="main" className="mx-auto max-w-6xl px-6 py-8">
            {children}
          </main>
        </div>
      </div>
    </div>
  );
}
