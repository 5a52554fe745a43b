/**
 * npm run webhooks:listen -- --port 4000 [--secret whsec_...] [--status 200] [--path /webhooks]
 * npm run webhooks:listen -- --create-endpoint [--gateway http://localhost:3000] [--key gw_test_...] [--events a,b]
 *
 * --create-endpoint (like `stripe listen --forward-to`): registers a test-mode endpoint pointing at
 * this listener through the gateway's API, prints the secret it verifies with, and deletes the
 * endpoint on exit. The key: --key, GATEWAY_API_KEY, or the demo test key in
 * DATA_DIR/demo-credentials.json. Test keys only: a development tool never touches live data.
 *
 * A local receiver for developers (like `stripe listen`): prints every
 * delivery and checks its signature with verifyWebhook (constant-time compare,
 * 5-minute tolerance) and flags repeated X-Webhook-Id values (retries and
 * replays). Point a test-mode endpoint at http://localhost:<port><path>;
 * deliveries to localhost need WEBHOOK_ALLOW_PRIVATE_HOSTS=127.0.0.1,::1 on the gateway.
 * Secrets: --secret (repeatable) or WEBHOOK_SECRET (comma-separated).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { verifyWebhook } from '@/lib/webhooks/verify-webhook';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4000' },
    host: { type: 'string', default: '127.0.0.1' },
    path: { type: 'string', default: '' },
    secret: { type: 'string', multiple: true, default: [] },
    status: { type: 'string', default: '200' },
    'create-endpoint': { type: 'boolean', default: false },
    gateway: { type: 'string', default: process.env.GATEWAY_URL ?? `http://localhost:${process.env.PORT ?? '3000'}` },
    key: { type: 'string' },
    events: { type: 'string', default: '*' },
  },
});

function apiKey(): string {
  const key = values.key ?? process.env.GATEWAY_API_KEY ?? demoTestKey();
  if (!key) throw new Error('--create-endpoint needs a test key: --key, GATEWAY_API_KEY, or the demo credentials of `npm run dev`');
  if (!key.startsWith('gw_test_')) throw new Error('--create-endpoint takes a test-mode key (gw_test_...) only');
  return key;
}

function demoTestKey(): string | undefined {
  try {
    const file = path.resolve(process.env.DATA_DIR || '.data', 'demo-credentials.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { testKey?: string }).testKey;
  } catch {
    return undefined;
  }
}

async function gateway(method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(new URL(route, values.gateway), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${String(json.message ?? '')}`);
  return json;
}

/** The endpoint this run created, deleted again on exit; `creating` while its POST is in flight. */
let created: { id: string; key: string } | undefined;
let creating: Promise<unknown> | undefined;
const secrets = [...values.secret!, ...(process.env.WEBHOOK_SECRET ?? '').split(',').filter(Boolean)];
const port = Number(values.port);
const status = Number(values.status);
const seen = new Set<string>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const at = new Date().toISOString();
    if (req.method !== 'POST' || (values.path && req.url !== values.path)) {
      console.log(`${at}  ${req.method} ${req.url}  ignored (expected POST ${values.path || '/*'})`);
      res.writeHead(404).end();
      return;
    }
    const id = String(req.headers['x-webhook-id'] ?? '?');
    let type = '?';
    try {
      type = JSON.parse(rawBody).type ?? '?';
    } catch {
      /* shown as ? */
    }
    let verdict = 'signature not checked (no --secret)';
    let ok = true;
    if (secrets.length) {
      const results = secrets.map((secret) => verifyWebhook({ secret, headers: req.headers as Record<string, string>, rawBody }));
      const good = results.find((r) => r.ok);
      ok = good !== undefined;
      verdict = ok ? 'signature ok' : `REJECTED: ${results.map((r) => (r.ok ? '' : r.reason)).join(', ')}`;
    }
    const repeat = seen.has(id) ? '  (repeat: same X-Webhook-Id, deduplicate)' : '';
    seen.add(id);
    const answer = ok ? status : 400;
    console.log(`${at}  ${type.padEnd(26)} ${id}  tenant=${req.headers['x-tenant-id'] ?? '?'}  ${verdict}  -> ${answer}${repeat}`);
    if (process.env.WEBHOOKS_LISTEN_VERBOSE === '1') console.log(`  ${rawBody}`);
    res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(ok ? 'ok' : 'bad signature');
  });
});

server.listen(port, values.host, async () => {
  const url = `http://${values.host}:${(server.address() as { port: number }).port}${values.path || '/'}`;
  if (values['create-endpoint']) {
    try {
      const key = apiKey();
      creating = gateway('POST', '/v1/webhooks/endpoints', key, {
        url,
        eventsSubscribed: values
          .events!.split(',')
          .map((e) => e.trim())
          .filter(Boolean),
        description: 'npm run webhooks:listen (deleted when it stops)',
      });
      const ep = (await creating) as Record<string, unknown>;
      created = { id: String(ep.id), key };
      secrets.push(String(ep.secret));
      console.log(`Created test-mode endpoint ${created.id} for ${url} on ${values.gateway}`);
      console.log(`Signing secret: ${String(ep.secret)}  (verifying with it; the endpoint is deleted when this stops)`);
    } catch (e) {
      console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      server.close(() => process.exit(1));
      return;
    }
  }
  console.log(`Listening for webhooks on ${url}  (${secrets.length} secret(s); answering ${status}). Ctrl-C to stop.`);
});

async function stop() {
  // Ctrl-C while the endpoint is being created: wait for it, so it is deleted rather than left behind.
  await creating?.catch(() => {});
  if (created) {
    const { id, key } = created;
    created = undefined;
    await gateway('DELETE', `/v1/webhooks/endpoints/${id}`, key).then(
      () => console.log(`Deleted endpoint ${id}`),
      (e) => console.error(`could not delete endpoint ${id}: ${e instanceof Error ? e.message : String(e)}`),
    );
  }
  server.close(() => process.exit(0));
  server.closeAllConnections(); // the gateway's kept-alive delivery connections would hold close() open
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void stop());
