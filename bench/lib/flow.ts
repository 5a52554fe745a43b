/**
 * The whole flow under load through the load balancer: invoices paid on chain,
 * withdrawals and exchange withdrawals once credited, waiting until every
 * withdrawal and delivery is final. The invariants checked afterwards live in
 * lib/testing/invariants.ts.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { parseUnits, TransactionNotFoundError, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { rowsOf, type Db } from '@/lib/db';
import { tokenArtifact } from '@/lib/testing/anvil';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import type { Cluster, ReceiverBehaviour } from './cluster';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API call through the load balancer, retried with the same Idempotency-Key on 502/503/network errors. */
async function api(c: Cluster, method: string, path: string, key: string, body?: unknown, stats?: FlowStats) {
  const idem = randomBytes(12).toString('hex');
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${c.proxy.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'idempotency-key': idem } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const json = (await res.json().catch(() => null)) as any;
      if (res.status === 500 && stats) stats.http500++;
      // 429 too: a fair-share or rate-limit refusal says when to come back (Retry-After), as a well-behaved client does.
      if ((res.status >= 500 || res.status === 409 || res.status === 429) && attempt < 60) {
        if (stats) stats.retries++;
        // Honour Retry-After (exchange_busy), capped; else a short backoff.
        const after = Number(res.headers.get('retry-after') ?? 0);
        if (process.env.FLOW_TRACE)
          console.error(
            `[flow] ${new Date().toISOString().slice(11, 23)} ${method} ${path} ${res.status} ${json?.code} retry-after ${after} attempt ${attempt}`,
          );
        await sleep(after > 0 ? Math.min(after, 30) * 1000 : 300 * Math.min(attempt, 5));
        continue;
      }
      return { status: res.status, body: json };
    } catch (err) {
      if (attempt >= 30) throw err;
      if (stats) stats.retries++;
      await sleep(300 * Math.min(attempt, 5));
    }
  }
}

export interface FlowStats {
  retries: number;
  http500: number;
  invoices: number;
  withdrawals: number;
  resentPayments?: number;
  exchangeWithdrawals?: number;
}

export interface Tenant {
  id: string;
  key: string;
}

export async function setupTenants(db: Db, c: Cluster, n: number, opts: { failingReceiversEverywhere?: boolean } = {}) {
  const tenants: Tenant[] = [];
  const behaviours: ReceiverBehaviour[] = ['ok', 'flaky', 'close', 'timeout', 'dead'];
  for (let i = 0; i < n; i++) {
    const t = await createTestTenant({ name: `Scale ${i}`, invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    const key = (await createTestKey(db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 10_000 })).key;
    // Every tenant has a healthy endpoint; the first one also has the failing kinds.
    for (const b of i === 0 || opts.failingReceiversEverywhere ? behaviours : (['ok'] as ReceiverBehaviour[])) {
      await createTestWebhookEndpoint(db, { tenantId: t.tenant.id, mode: 'test' }, { url: `${c.receivers.url}/${b}/${t.tenant.id}` });
    }
    tenants.push({ id: t.tenant.id, key });
  }
  return tenants;
}

/** Invoices created through the balancer, paid on chain with the exact amount, then withdrawals once credited. */
export async function runFlow(
  db: Db,
  c: Cluster,
  tenants: Tenant[],
  opts: {
    invoicesPerTenant: number;
    withdrawalsPerTenant: number;
    exchangeWithdrawalsPerTenant?: number;
    timeoutMs?: number;
    afterPayments?: () => Promise<void>;
    /** Runs beside the exchange withdrawals (e.g. the exchange failing for a while). */
    duringExchange?: () => Promise<void>;
  },
) {
  const stats: FlowStats = { retries: 0, http500: 0, invoices: 0, withdrawals: 0 };
  const { abi } = tokenArtifact();
  const faucet = c.chain.faucet;
  const paid: { id: string; amount: string; address: Address; hash: `0x${string}` }[] = [];
  let nonce = await c.chain.client.getTransactionCount({ address: faucet.account.address, blockTag: 'pending' });

  // Invoices, a few at a time per tenant, paid as soon as they exist.
  await Promise.all(
    tenants.map(async (t, ti) => {
      for (let i = 0; i < opts.invoicesPerTenant; i++) {
        const amount = `${1 + ((ti * 7 + i * 13) % 40)}.${String((i * 17) % 100).padStart(2, '0')}`;
        const res = await api(c, 'POST', '/v1/invoices', t.key, { amount, expiresInMinutes: 60 }, stats);
        if (res.status !== 201 && res.status !== 200) throw new Error(`create invoice: ${res.status} ${JSON.stringify(res.body)}`);
        stats.invoices++;
        const n = nonce++;
        const hash = await faucet.writeContract({
          address: c.chain.token,
          abi,
          functionName: 'transfer',
          args: [res.body.depositAddress as Address, parseUnits(amount, 18)],
          nonce: n,
        });
        paid.push({ id: res.body.id, amount, address: res.body.depositAddress as Address, hash });
      }
    }),
  );

  if (opts.afterPayments) {
    await opts.afterPayments();
    // A payment whose block was dropped by a reorg and that is not pending any more: the customer pays again.
    await sleep(3_000);
    let resent = 0;
    for (const p of paid) {
      // Only the node's "no such transaction" means dropped; any other failure is no answer (and must not pay twice).
      const tx = await c.chain.client.getTransaction({ hash: p.hash }).catch((err: unknown) => {
        if (err instanceof TransactionNotFoundError) return null;
        throw err;
      });
      if (tx) continue;
      p.hash = await faucet.writeContract({ address: c.chain.token, abi, functionName: 'transfer', args: [p.address, parseUnits(p.amount, 18)] });
      resent++;
    }
    stats.resentPayments = resent;
  }

  const deadline = Date.now() + (opts.timeoutMs ?? 150_000);
  const waitFor = async (what: string, check: () => Promise<number>) => {
    for (;;) {
      // The checker's own connection may fail while PostgreSQL restarts: try again.
      const left = await check().catch(() => -1);
      if (left === 0) return;
      if (Date.now() > deadline) {
        const diag = rowsOf<{ s: string }>(
          await db.execute(sql`
            select 'invoices ' || coalesce(string_agg(status || '=' || n, ' '), '') as s from (select status, count(*) n from invoices group by status) a
            union all select 'settlements ' || coalesce(string_agg(status || '=' || n || ' (locked ' || locked || ', attempts ' || attempts || ')', ' '), '') from (select status, count(*) n, count(*) filter (where locked_until > now()) locked, max(attempts) attempts from settlements group by status) b
            union all select 'withdrawals ' || coalesce(string_agg(status || '=' || n, ' '), '') from (select status, count(*) n from withdrawals group by status) c
            union all select 'deliveries ' || coalesce(string_agg(status || '=' || n, ' '), '') from (select status, count(*) n from webhook_deliveries group by status) d
            union all select 'leases ' || coalesce(string_agg(name || ' ' || greatest(0, extract(epoch from expires_at - now()))::int || 's', ', '), '') from job_leases`),
        );
        throw new Error(`timed out waiting for ${what}: ${left} left; ${diag.map((d) => d.s).join('; ')}`);
      }
      await sleep(500);
    }
  };
  const ids = `{${paid.map((p) => p.id).join(',')}}`;
  await waitFor('invoices PAID_OUT', async () => {
    const [r] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*)::text as n from invoices where id = any(${ids}::text[]) and status <> 'PAID_OUT'`),
    );
    return Number(r!.n);
  });

  // Withdrawals to fresh addresses (so each destination's token balance shows exactly what was sent to it).
  const sent: { address: Address; amount: string; id: string }[] = [];
  await Promise.all(
    tenants.map(async (t) => {
      for (let i = 0; i < opts.withdrawalsPerTenant; i++) {
        const address = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`).address;
        const amount = `1.${String(10 + i).padStart(2, '0')}`;
        const res = await api(c, 'POST', '/v1/withdrawals', t.key, { amount, destinationAddress: address }, stats);
        if (res.status !== 201 && res.status !== 200) throw new Error(`create withdrawal: ${res.status} ${JSON.stringify(res.body)}`);
        stats.withdrawals++;
        sent.push({ address, amount, id: res.body.id });
      }
    }),
  );
  // Exchange withdrawals (USDT → BTC through the exchange), through the balancer, retried on 502/503.
  const exchangeIds: string[] = [];
  if (opts.exchangeWithdrawalsPerTenant) {
    const during = opts.duringExchange?.();
    await Promise.all(
      tenants.map(async (t) => {
        for (let i = 0; i < opts.exchangeWithdrawalsPerTenant!; i++) {
          const body = {
            type: 'float',
            fromCcy: 'USDTBSC',
            toCcy: 'BTC',
            direction: 'from',
            amount: '12',
            toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
          };
          const res = await api(c, 'POST', '/v1/withdrawals/exchange/withdrawal', t.key, body, stats);
          if (res.status !== 201 && res.status !== 200) throw new Error(`exchange withdrawal: ${res.status} ${JSON.stringify(res.body)}`);
          stats.exchangeWithdrawals = (stats.exchangeWithdrawals ?? 0) + 1;
          exchangeIds.push(res.body.data.withdrawal.id);
          await sleep(1_000);
        }
      }),
    );
    await during;
  }
  const wids = `{${[...sent.map((s) => s.id), ...exchangeIds].join(',')}}`;
  await waitFor('withdrawals final', async () => {
    const [r] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*)::text as n from withdrawals where id = any(${wids}::text[]) and status not in ('COMPLETED', 'FAILED')`),
    );
    return Number(r!.n);
  });
  const tids = `{${tenants.map((t) => t.id).join(',')}}`;
  await waitFor('webhook deliveries final', async () => {
    const [r] = rowsOf<{ n: string }>(
      await db.execute(
        sql`select count(*)::text as n from webhook_deliveries where tenant_id = any(${tids}::text[]) and status not in ('SUCCEEDED', 'DEAD_LETTER')`,
      ),
    );
    return Number(r!.n);
  });
  return { stats, paid, sent, exchangeIds };
}
