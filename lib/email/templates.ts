import type { EmailKind } from '@/db/schema/emails';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Lines of plain text, each also an HTML paragraph; a `link` line becomes a button in HTML. */
type Line = string | { link: string; label: string };

function render(subject: string, merchant: string, lines: Line[]): RenderedEmail {
  const text = [...lines.map((l) => (typeof l === 'string' ? l : `${l.label}: ${l.link}`)), '', `— ${merchant}`].join('\n');
  const body = lines
    .map((l) =>
      typeof l === 'string'
        ? `<p>${escape(l)}</p>`
        : `<p><a href="${escape(l.link)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:6px">${escape(l.label)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px">\n${body}\n<p style="color:#666">— ${escape(merchant)}</p>\n</body></html>`;
  return { subject, text, html };
}

/**
 * The e-mails' words: invoice (a period's invoice to pay), upcoming (due soon), reminder (it is past due), receipt (a
 * payment received), canceled (the subscription ended, and why), portal (a one-time link to the customer portal).
 * `data` holds strings only (amounts as decimal strings); every value is escaped in HTML.
 */
export function renderEmail(kind: EmailKind, d: Record<string, string>): RenderedEmail {
  const merchant = d.merchantName ?? 'The merchant';
  const what = `${d.amount} ${d.token} on ${d.chain}`;
  switch (kind) {
    case 'invoice':
      return render(`Invoice from ${merchant}: ${what}`, merchant, [
        `${d.description ?? 'Your invoice'} is ready.`,
        `Amount: ${what}. Please pay by ${d.dueAt}.`,
        { link: d.payUrl!, label: 'Pay the invoice' },
      ]);
    case 'upcoming':
      return render(`Your invoice from ${merchant} is due soon`, merchant, [
        `${d.description ?? 'Your invoice'} (${what}) is due on ${d.dueAt}.`,
        { link: d.payUrl!, label: 'Pay the invoice' },
      ]);
    case 'canceled':
      return render(`Your ${d.planName ?? ''} subscription with ${merchant} is canceled`.replace('  ', ' '), merchant, [
        d.reason === 'unpaid'
          ? `Your ${d.planName} subscription was canceled: its invoice was not paid by the end of the grace period.`
          : d.reason === 'period_end'
            ? `Your ${d.planName} subscription ended at the end of its period, as requested. You will not be billed again.`
            : `Your ${d.planName} subscription was canceled by ${merchant}. You will not be billed again.`,
      ]);
    case 'reminder':
      return render(`Reminder: your invoice from ${merchant} is past due`, merchant, [
        `${d.description ?? 'Your invoice'} (${what}) was due on ${d.dueAt} and is not paid yet.`,
        'Without payment the subscription will be canceled at the end of the grace period.',
        { link: d.payUrl!, label: 'Pay the invoice' },
      ]);
    case 'portal':
      return render(`Manage your subscriptions with ${merchant}`, merchant, [
        `Open this link to see your subscriptions with ${merchant} and cancel one at the end of its period.`,
        { link: d.portalUrl!, label: 'Open the portal' },
        `The link works once and until ${d.expiresAt}. If you did not ask for it, ignore this e-mail.`,
      ]);
    case 'receipt':
      return render(`Receipt from ${merchant}: ${what}`, merchant, [
        `We received your payment of ${d.amountReceived ?? d.amount} ${d.token} on ${d.chain}.`,
        `${d.description ?? 'Invoice'} (${d.invoiceId}). Thank you.`,
      ]);
  }
}
