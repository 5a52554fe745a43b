import { SpanKind, type AttributeValue, type Attributes, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Paths whose segment after the prefix is a bearer secret (the page's route template names it): a refund claim
 * link's secret, a team invitation's token. Other ids in paths (invoices, stores, links) are not secrets and stay.
 */
const SECRET_SEGMENT = /(\/(?:refund-claim|invite)\/)(?!\[token\])[^/?#\s"'<>]+/g;

// An absolute URL anywhere in a text: everything after its origin may hold a key (an RPC provider's key is its
// path, a rate feed's is its query), so it is cut to the origin.
const ABSOLUTE_URL = /\b(?:https?|wss?):\/\/[^\s"'<>]+/gi;

// A secret-looking query parameter left anywhere else in a text (belt and braces: queries of paths are dropped whole).
const SECRET_PARAM = /([?&](?:claim|token|secret|code|state|key|apikey|api_key|access_token)=)[^&#\s"'<>]*/gi;

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '[url]';
  }
}

/** A request target (`/pay/inv_1?claim=…`): the query dropped (claim tokens, OAuth codes), secret path segments templated. */
export function redactTarget(target: string): string {
  return target.replace(/[?#].*$/s, '').replace(SECRET_SEGMENT, '$1[token]');
}

/**
 * Any text a span carries: absolute URLs cut to their origin, secret path segments templated
 * (`/refund-claim/<secret>` → `/refund-claim/[token]`); a text that is a path, or `METHOD path` (Next's span names before
 * the route is known), loses its query. Other texts keep their `?` (a SQL statement's operators).
 */
export function redactText(text: string): string {
  const cut = text.replace(ABSOLUTE_URL, (u) => origin(u)).replace(SECRET_SEGMENT, '$1[token]');
  const m = /^((?:[A-Z]+ )?)(\/\S*)$/.exec(cut);
  return (m ? m[1] + redactTarget(m[2]!) : cut).replace(SECRET_PARAM, '$1[redacted]');
}

// Attributes that are a query string on their own: nothing in them is worth keeping.
const QUERY_KEYS = new Set(['url.query', 'http.query']);
// An outgoing call's path is someone else's (an RPC provider's key is its path): only its origin is kept.
const CLIENT_PATH_KEYS = new Set(['url.path', 'http.target']);

function redactValue(key: string, value: AttributeValue | undefined, client: boolean): AttributeValue | undefined {
  if (QUERY_KEYS.has(key) || (client && CLIENT_PATH_KEYS.has(key))) return '[redacted]';
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? redactText(v) : v)) as AttributeValue;
  return value;
}

function redactAttributes(attributes: Attributes, client = false): void {
  for (const [key, value] of Object.entries(attributes)) attributes[key] = redactValue(key, value, client);
}

/**
 * Removes secrets from every span before any exporter sees it: Next's request span carries the raw target
 * (`/pay/<id>?claim=<token>`, `/refund-claim/<secret>`, `/invite/<token>`) in its name and `http.target`/`http.url`, the
 * fetch instrumentation the URL it called (an RPC URL whose path is the provider's key, FIAT_RATES_URL) in its name and
 * `http.url`/`url.full`. Registered first (lib/metrics/register-tracing.ts): span processors run in order, and an
 * ended span's name and attributes are rewritten in place (the SDK's API refuses changes after end, its fields do not),
 * so every processor after this one, the exporting one included, sees only the redacted span.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    const s = span as { -readonly [K in keyof ReadableSpan]: ReadableSpan[K] };
    s.name = redactText(span.name);
    redactAttributes(span.attributes, span.kind === SpanKind.CLIENT);
    for (const e of span.events) {
      if (e.attributes) redactAttributes(e.attributes);
    }
    if (span.status.message) s.status = { ...span.status, message: redactText(span.status.message) };
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
