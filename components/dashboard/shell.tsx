import Link from 'next/link';
import type { ReactNode } from 'react';
import { signOutAction } from './actions';
import { ModeSwitch } from './mode-switch';
import { MenuButton, NavDrawer, NavDrawerBackdrop, NavDrawerProvider } from './nav-drawer';
import { NavLink } from './nav-link';

const NAV = [
  { href: '/dashboard', label: 'Home', exact: true },
  { href: '/dashboard/invoices', label: 'Invoices' },
  { href: '/dashboard/balance', label: 'Balance & withdrawals' },
  { href: '/dashboard/payouts', label: 'Payouts' },
  { href: '/dashboard/api-keys', label: 'API keys' },
  { href: '/dashboard/webhooks', label: 'Webhooks', exact: true },
  { href: '/dashboard/webhooks/deliveries', label: 'Webhook deliveries' },
  { href: '/dashboard/products', label: 'Products' },
  { href: '/dashboard/orders', label: 'Orders' },
  { href: '/dashboard/payment-links', label: 'Payment links' },
  { href: '/dashboard/subscriptions', label: 'Subscriptions' },
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
    <div className={`flex min-h-screen flex-col ${test ? 'border-t-4 border-amber-500' : 'border-t-4 border-transparent'}`}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <NavDrawerProvider>
        <div className="flex flex-1">
          {/* Below md the open drawer slides in under the header, whose menu button closes it again. From md up
              the aside stretches to the page's full height (its background with it) and its content stays in view. */}
          <NavDrawer
            as="aside"
            id="dashboard-nav"
            openClass="fixed inset-y-0 left-0 z-30 flex w-64 pt-14 shadow-xl"
            closedClass="hidden"
            className="shrink-0 flex-col border-r border-slate-200 bg-white md:static md:z-auto md:flex md:w-60 md:pt-0 md:shadow-none"
          >
            <div className="flex h-full flex-col overflow-y-auto px-3 py-4 md:sticky md:top-0 md:h-screen">
              <Link href="/dashboard" className="mb-6 flex items-center gap-2 px-3 text-sm font-semibold text-slate-900">
                <span className="grid h-7 w-7 shrink-0 place-items-center rounded-md bg-indigo-600 text-xs text-white">₮</span>
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
            </div>
          </NavDrawer>
          <NavDrawerBackdrop />
          <div className="min-w-0 flex-1">
            <header className="sticky top-0 z-40 flex h-14 items-center justify-between gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6">
              <div className="flex min-w-0 items-center gap-3">
                <MenuButton controls="dashboard-nav" />
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
              </div>
              <ModeSwitch mode={mode} />
            </header>
            <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
              {children}
            </main>
          </div>
        </div>
      </NavDrawerProvider>
    </div>
  );
}
