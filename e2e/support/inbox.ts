import { expect, type APIRequestContext } from '@playwright/test';
import { APP_PORTS } from '../../playwright.config';
import { MAIL_PORTS } from './stack-env';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;

/** One message as the stack's maildev (lib/dev/dev-mail.ts) shows it at its web API. */
export interface Mail {
  subject: string;
  text: string;
  to: { address: string }[];
}

/** Every message the stack's maildev received for `to` so far: what the customer's inbox holds. */
export async function mailsTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  const inbox = (await (await request.get(`http://127.0.0.1:${MAIL_PORTS.web}/api/email`)).json()) as Mail[];
  return inbox.filter((m) => JSON.stringify(m.to).includes(to));
}

/** A link `to` received whose URL matches `link` (waited for), pointed at this run's app: what the customer clicks. */
export async function linkMailedTo(request: APIRequestContext, to: string, link: RegExp, opts: { timeout?: number } = {}) {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(request, to)).flatMap((m) => m.text.match(link) ?? [])[0];
        return found;
      },
      { timeout: opts.timeout ?? 30_000 },
    )
    .toBeTruthy();
  return found!.replace(/^https?:\/\/[^/]+/, BASE);
}

/** The customer-portal link of a "Manage your subscriptions" e-mail. */
export const portalLinkMailedTo = (request: APIRequestContext, to: string, opts?: { timeout?: number }) =>
  linkMailedTo(request, to, /https?:\/\/\S+\/portal\/[A-Za-z0-9_-]+/, opts);

/** The pay link (with its claim token) of the invoice e-mail for `invoiceId`. */
export const invoiceLinkMailedTo = (request: APIRequestContext, to: string, invoiceId: string, opts?: { timeout?: number }) =>
  linkMailedTo(request, to, new RegExp(`https?://\\S+/pay/${invoiceId}\\?claim=\\S+`), opts);
