import type { Operation } from './operation';

const BASE = 'https://gateway.example.com';

function placeholderPath(op: Operation) {
  return op.path.replace(/:(\w+)/g, (_m, name: string) => `{${name}}`);
}

/**
 * `x-codeSamples` for the reference (/docs): curl, and TypeScript with
 * openapi-fetch over the generated types, as examples/client does it.
 */
export function codeSamples(op: Operation) {
  const path = placeholderPath(op);
  const body = op.body ? JSON.stringify(op.example ?? {}) : undefined;
  const curl = [
    `curl -X ${op.method} '${BASE}${path.replace(/\{(\w+)\}/g, (_m, n: string) => `<${n}>`)}'`,
    `  -H "Authorization: Bearer $GATEWAY_API_KEY"`,
    ...(body ? [`  -H 'Content-Type: application/json'`, `  -d '${body}'`] : []),
  ].join(' \\\n');
  const options = [
    ...(op.params
      ? [
          `params: { path: { ${Object.keys(op.params)
            .map((n) => `${n}: '<${n}>'`)
            .join(', ')} } }`,
        ]
      : []),
    ...(body ? [`body: ${body}`] : []),
  ];
  const ts = [
    `import createClient from 'openapi-fetch';`,
    `// npx openapi-typescript ${BASE}/v1/openapi.json -o schema.d.ts`,
    `import type { paths } from './schema';`,
    ``,
    `const client = createClient<paths>({ baseUrl: '${BASE}', headers: { Authorization: \`Bearer \${process.env.GATEWAY_API_KEY}\` } });`,
    `const { data, error } = await client.${op.method}('${path}'${options.length ? `, { ${options.join(', ')} }` : ''});`,
  ].join('\n');
  return [
    { lang: 'Shell', label: 'curl', source: curl },
    { lang: 'TypeScript', label: 'TypeScript (openapi-fetch)', source: ts },
  ];
}
