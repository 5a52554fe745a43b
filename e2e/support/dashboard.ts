import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page } from '@playwright/test';

export const SCREENSHOTS = 'test-results/screenshots';

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

export function uniqueEmail(tag: string) {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

export async function signUpViaUi(page: Page, opts: { business: string; email: string; password: string; screenshot?: boolean }) {
  await page.goto('/sign-up');
  if (opts.screenshot) await shot(page, 'sign-up');
  await page.getByLabel('Business name').fill(opts.business);
  await page.getByLabel('Email').fill(opts.email);
  await page.getByLabel('Password').fill(opts.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}

export async function signInViaUi(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
}

/** A webhook receiver on loopback whose answer the test switches between 200 and 500. */
export async function startReceiver() {
  const state = { fail: false, received: [] as { type: string; id: string }[] };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        const evt = JSON.parse(body) as { id: string; type: string };
        state.received.push({ type: evt.type, id: evt.id });
      } catch {
        /* not JSON: still answer */
      }
      res.statusCode = state.fail ? 500 : 200;
      res.end(state.fail ? 'receiver failing on purpose' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}
