import { headers } from 'next/headers';
import Script from 'next/script';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { PRODUCT_NAME } from '@/lib/config/product';
import { OPERATIONS } from '@/lib/operations';
import { WEBHOOK_EVENTS } from '@/lib/events/webhook-docs';

export const metadata = { title: 'API reference' };
// Rendered per request: the CSP nonce (proxy.ts) must reach the script, which a prerendered page cannot carry.
export const dynamic = 'force-dynamic';

/**
 * The API reference: Scalar (bundled locally, app/docs/reference.js) renders
 * /v1/openapi.json with its webhooks, curl and TypeScript samples, and a
 * try-it client that sends requests to this gateway (use a gw_test_ key).
 * The list under <noscript> keeps the page useful without JavaScript.
 */
export default async function DocsPage() {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  const doc = buildOpenApiDocument(OPERATIONS, WEBHOOK_EVENTS);
  const configuration = {
    url: '/v1/openapi.json',
    telemetry: false,
    withDefaultFonts: false,
    agent: { disabled: true },
    // The stand-alone client is hosted by Scalar; the per-operation "Test Request" client stays, sending to this gateway.
    hideClientButton: true,
    showDeveloperTools: 'never',
    documentDownloadType: 'json',
    defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
    hiddenClients: {
      c: true,
      clojure: true,
      csharp: true,
      dart: true,
      fsharp: true,
      go: true,
      http: false,
      java: true,
      kotlin: true,
      objc: true,
      ocaml: true,
      php: true,
      powershell: true,
      python: false,
      r: true,
      ruby: true,
      rust: true,
      swift: true,
    },
    authentication: { preferredSecurityScheme: 'bearer' },
    // An operation's response codes (a POST answers up to ten) wrap onto a second row instead of
    // scrolling out of sight in a strip with no visible scrollbar.
    customCss: '.scalar-card-header-tabs .tab-list.custom-scroll { flex-wrap: wrap; overflow: visible; }',
    // Scalar sets the tab's title itself: the same as the page's (app/layout.tsx's template).
    metaData: { title: `API reference · ${PRODUCT_NAME}` },
  };
  return (
    <>
      <div id="gateway-api-reference" data-configuration={JSON.stringify(configuration)} />
      <noscript>
        <main className="mx-auto max-w-4xl px-6 py-10">
          <h1 className="text-3xl font-semibold">API reference</h1>
          <p className="mt-2">
            Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).
          </p>
          <ul className="mt-4 font-mono text-sm">
            {Object.entries(doc.paths).flatMap(([p, methods]) =>
              Object.keys(methods).map((m) => <li key={`${m} ${p}`}>{`${m.toUpperCase()} ${p}`}</li>),
            )}
          </ul>
        </main>
      </noscript>
      {/* After hydration: Scalar restyles <body> when it mounts, and a plain <script> in the tree both made
          React's hydration fail on that and drew React's "script tag" error, printed on every visit. */}
      <Script src="/docs/reference.js" nonce={nonce} strategy="afterInteractive" />
    </>
  );
}
