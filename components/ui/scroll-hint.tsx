'use client';

import { useEffect, useId, useState, type ReactNode } from 'react';

/**
 * Above a wide table: says the table scrolls sideways whenever it does, at any width (a breakpoint guessed wrong at
 * 1280 px, where the preview's error column still overflowed). The table names this hint in `aria-describedby`.
 */
export function ScrollHint({ id, className = '' }: { id: string; className?: string }) {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const table = document.querySelector<HTMLElement>(`[aria-describedby="${id}"]`);
    if (!table) return;
    const measure = () => setOverflows(table.scrollWidth > table.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(table);
    if (table.firstElementChild) observer.observe(table.firstElementChild);
    return () => observer.disconnect();
  }, [id]);
  return (
    <p id={id} className={`text-xs text-slate-500 ${className}`} hidden={!overflows} data-testid="scroll-hint">
      Swipe or scroll the table sideways to see every column →
    </p>
  );
}

/**
 * A table's sideways-scrolling box with its hint (issue 45: at 360 px the console's last columns were cut with no
 * hint). `className` places the whole (e.g. `-m-5` to reach a card's edges); the table is the box's only child.
 */
export function ScrollTable({ className = '', children }: { className?: string; children: ReactNode }) {
  const id = `scroll-hint-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <div className={className}>
      <ScrollHint id={id} className="px-5 pt-3" />
      <div className="overflow-x-auto" tabIndex={0} aria-describedby={id}>
        {children}
      </div>
    </div>
  );
}
