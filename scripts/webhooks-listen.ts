/**
 * npm run webhooks:listen -- --port 4000 [--secret whsec_...] [--status 200] [--path /webhooks]
 *
 * A local receiver for developers (like `stripe listen`): prints every
 * delivery and checks its signature with verifyWebhook (constant-time compare,
 * 5-minute tolerance) and flags repeated X-Webhook-Id values (retries and
 * replays). Point a test-mode endpoint at http://localhost:<port><path>;
 * deliveries to localhost need WEBHOOK_ALLOW_PRIVATE_HOSTS=127.0.0.1,::1 on the gateway.
 * Secrets: --secret (repeatable) or WEBHOOK_SECRET (comma-separated).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { verifyWebhook } from '@/lib/webhooks/verify-webhook';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4000' },
    host: { type: 'string', default: '127.0.0.1' },
    path: { type: 'string', default: '' },
    secret: { type: 'string', multiple: true, default: [] },
    status: { type: 'string', default: '200' },
  },
});
const secrets = [...values.secret!, ...(process.env.WEBHOOK_SECRET ?? '').split(',').filter(Boolean)];
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

server.listen(Number(values.port), values.host, () => {
  console.log(`Listening for webhooks on http://${values.host}:${values.port}${values.path || '/'}  (${secrets.length} secret(s); answering ${status}). Ctrl-C to stop.`);
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => server.close(() => process.exit(0)));
