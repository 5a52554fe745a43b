'use client';

import { useEffect, useState } from 'react';

/**
 * Above a wide table: says the table scrolls sideways whenever it does, at any width (a breakpoint guessed wrong at
 * 1280 px, where the preview's error column still overflowed). The table names this hint in `aria-describedby`.
 */
export function ScrollHint({ id }: { id: string }) {
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
    <p id={id} className="text-xs text-slate-500" hidden={!overflows} data-testid="scroll-hint">
      Swipe or scroll the table sideways to see every column →
    </p>
  );
}
