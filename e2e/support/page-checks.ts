import { expect, type Locator, type Page } from '@playwright/test';

/** What React and Next report when hydration fails: development wording and production error codes. */
const HYDRATION = /hydrat|didn't match|did not match|Minified React error #(418|419|421|422|423|425)\b/i;

/**
 * Collects, from now on, the page's uncaught errors (Next reports recoverable React errors,
 * hydration mismatches among them, through reportError) and console errors about hydration.
 */
export function watchPageErrors(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && HYDRATION.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return { errors };
}

/**
 * Every header cell of the table lies inside its scroll container, the page's main area and the
 * viewport, and the table needs no sideways scrolling: nothing is clipped or pushed off the page.
 */
export async function expectTableUnclipped(page: Page, table: Locator, opts: { soft?: boolean } = {}) {
  const check = opts.soft ? expect.soft : expect;
  const viewport = page.viewportSize()!;
  const geometry = await table.evaluate((t) => {
    const scroller = t.parentElement!;
    const cells = [...t.querySelectorAll('thead th')].map((th) => {
      const r = th.getBoundingClientRect();
      return { text: th.textContent, left: r.left, right: r.right };
    });
    const box = scroller.getBoundingClientRect();
    const main = (t.closest('main') ?? document.body).getBoundingClientRect();
    return { cells, right: Math.min(box.right, main.right), scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
  });
  check(geometry.scrollWidth, 'table wider than its container').toBeLessThanOrEqual(geometry.clientWidth);
  for (const c of geometry.cells) {
    check(c.right, `column "${c.text}" past its container or the main area`).toBeLessThanOrEqual(geometry.right + 0.5);
    check(c.right, `column "${c.text}" past the viewport`).toBeLessThanOrEqual(viewport.width);
  }
}
