'use client';

import { usePathname } from 'next/navigation';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * The navigation below the md breakpoint: hidden behind a menu button, open until a link is followed,
 * Escape or a second click. From md up the navigation always shows and the button is hidden.
 */
const DrawerContext = createContext<{ open: boolean; toggle: () => void; close: () => void }>({
  open: false,
  toggle: () => {},
  close: () => {},
});

export function NavDrawerProvider({ children }: { children: ReactNode }) {
  const path = usePathname();
  // Open for the page it was opened on: following a link closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === path;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpenOn(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  const value = { open, toggle: () => setOpenOn(open ? null : path), close: () => setOpenOn(null) };
  return <DrawerContext.Provider value={value}>{children}</DrawerContext.Provider>;
}

export function MenuButton({ controls, className = '' }: { controls: string; className?: string }) {
  const { open, toggle } = useContext(DrawerContext);
  return (
    <button
      type="button"
      aria-label="Menu"
      aria-expanded={open}
      aria-controls={controls}
      onClick={toggle}
      className={`grid h-9 w-9 shrink-0 place-items-center rounded-md border border-slate-200 bg-white text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 md:hidden ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
        {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
      </svg>
    </button>
  );
}

/** The collapsible part: `openClass` while open below md, `closedClass` otherwise (md: classes decide from md up). */
export function NavDrawer({
  id,
  as: Tag = 'div',
  openClass,
  closedClass,
  className = '',
  children,
}: {
  id: string;
  as?: 'div' | 'aside';
  openClass: string;
  closedClass: string;
  className?: string;
  children: ReactNode;
}) {
  const { open } = useContext(DrawerContext);
  return (
    <Tag id={id} className={`${open ? openClass : closedClass} ${className}`}>
      {children}
    </Tag>
  );
}

/** Dims the page behind the open drawer; a click on it closes the drawer. */
export function NavDrawerBackdrop() {
  const { open, close } = useContext(DrawerContext);
  if (!open) return null;
  return <div aria-hidden="true" onClick={close} className="fixed inset-0 z-20 bg-slate-900/40 md:hidden" />;
}
