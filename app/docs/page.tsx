import { buildOpenApiDocument } from '@/lib/api/openapi';
import { OPERATIONS } from '@/lib/operations';

export const metadata = { title: 'API reference · USDT Gateway' };
// Rendered per request: the CSP nonce (proxy.ts) must reach Next's scripts, which a prerendered page cannot carry.
export const dynamic = 'force-dynamic';

type Json = Record<string, unknown>;

const METHOD_COLOR: Record<string, string> = {
  get: 'bg-emerald-100 text-emerald-800',
  post: 'bg-sky-100 text-sky-800',
  patch: 'bg-amber-100 text-amber-800',
  delete: 'bg-rose-100 text-rose-800',
};

function SchemaBlock({ schema }: { schema: unknown }) {
  return (
    <pre className="mt-2 max-h-80 overflow-auto rounded bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
      {JSON.stringify(schema, null, 2)}
    </pre>
  );
}

/** Server-rendered reference generated from the same OpenAPI document as /v1/openapi.json. */
export default function DocsPage() {
  const doc = buildOpenApiDocument(OPERATIONS);
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Json })),
  );
  const tags = [...new Set(ops.map((o) => (o.op.tags as string[])[0]!))];
  return (
    <div className="mx-auto flex max-w-6xl gap-10 px-6 py-10">
      <nav aria-label="Endpoints" className="sticky top-6 hidden h-fit w-64 shrink-0 text-sm lg:block">
        {tags.map((tag) => (
          <div key={tag} className="mb-4">
            <div className="font-semibold text-slate-700">{tag}</div>
            <ul className="mt-1 space-y-1">
              {ops
                .filter((o) => (o.op.tags as string[])[0] === tag)
                .map((o) => (
                  <li key={`${o.method} ${o.path}`}>
                    <a className="text-slate-600 hover:text-slate-900" href={`#${o.op.operationId as string}`}>
                      {o.op.summary as string}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <main className="min-w-0 flex-1">
        <h1 className="text-3xl font-semibold">API reference</h1>
        <p className="mt-3 text-slate-600">{doc.info.description}</p>
        <p className="mt-2 text-sm text-slate-500">
          Machine-readable: <a className="underline" href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).
        </p>
        {ops.map(({ path, method, op }) => (
          <section key={`${method} ${path}`} id={op.operationId as string} className="mt-10 border-t border-slate-200 pt-6">
            <h2 className="text-xl font-semibold">{op.summary as string}</h2>
            <div className="mt-2 flex items-center gap-2 font-mono text-sm">
              <span className={`rounded px-2 py-0.5 font-bold uppercase ${METHOD_COLOR[method] ?? ''}`}>{method}</span>
              <span data-testid="endpoint-path">{path}</span>
            </div>
            <p className="mt-3 whitespace-pre-line text-slate-700">{op.description as string}</p>
            {op.requestBody ? (
              <details className="mt-3">
                <summary className="cursor-pointer text-sm font-medium">Request body</summary>
                <SchemaBlock schema={(op.requestBody as Json).content} />
              </details>
            ) : null}
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-medium">Responses</summary>
              <SchemaBlock schema={op.responses} />
            </details>
          </section>
        ))}
      </main>
    </div>
  );
}
