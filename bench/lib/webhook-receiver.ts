/**
 * Child process of bench/webhooks.ts: two loopback receivers. "fast" verifies
 * every signature (verifyWebhook, constant time) and counts deliveries per
 * event id; "slow" answers after 10 s. Runs apart from the gateway loop so the
 * two do not share one event loop.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@/lib/webhooks/verify-webhook';

const secrets = JSON.parse(process.env.BENCH_SECRETS!) as string[];
const counts = new Map<string, number>();
const perSecond = new Map<number, number>();
const latencies: number[] = [];
/** When each event id first arrived (epoch ms), for latencies measured from the sender's commit. */
const firstSeen = new Map<string, number>();
let total = 0;
let badSignatures = 0;
let origin = Date.now();

const fast = createServer((req, res) => {
  const arrived = Date.now();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const ok = secrets.some((secret) => verifyWebhook({ secret, headers: req.headers as Record<string, string>, rawBody }).ok);
    if (!ok) {
      badSignatures++;
      res.writeHead(400).end('bad signature');
      return;
    }
    const id = req.headers['x-webhook-id'] as string;
    const now = Date.now();
    total++;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if (!firstSeen.has(id)) firstSeen.set(id, arrived);
    const sec = Math.floor((now - origin) / 1000);
    perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
    latencies.push(now - Date.parse(JSON.parse(rawBody).createdAt));
    res.writeHead(200).end();
  });
});
const slow = createServer((req, res) => {
  req.resume();
  req.on('end', () => setTimeout(() => res.writeHead(200).end(), 10_000));
});
fast.keepAliveTimeout = 10_000;

await new Promise<void>((r) => fast.listen(0, '127.0.0.1', r));
await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
process.send!({ type: 'ready', fast: (fast.address() as AddressInfo).port, slow: (slow.address() as AddressInfo).port });

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

process.on('message', (msg: { type: string; ids?: string[] }) => {
  if (msg.type === 'reset') {
    counts.clear();
    firstSeen.clear();
    perSecond.clear();
    latencies.length = 0;
    total = 0;
    badSignatures = 0;
    origin = Date.now();
    process.send!({ type: 'reset' });
  } else if (msg.type === 'report') {
    const sorted = [...latencies].sort((a, b) => a - b);
    let duplicates = 0;
    for (const n of counts.values()) if (n > 1) duplicates += n - 1;
    const seconds = Math.max(0, ...perSecond.keys()) + 1;
    process.send!({
      type: 'report',
      total,
      unique: counts.size,
      duplicates,
      badSignatures,
      p50: pct(sorted, 0.5),
      p99: pct(sorted, 0.99),
      perSecond: Array.from({ length: seconds }, (_, i) => perSecond.get(i) ?? 0),
    });
  } else if (msg.type === 'receipts') {
    process.send!({ type: 'receipts', receipts: [...firstSeen] });
  } else if (msg.type === 'exit') {
    process.exit(0);
  }
});
