/**
 * The whole flow under load through the load balancer, and the invariants
 * checked afterwards (Jepsen's bank test, adapted): every paid invoice credited
 * exactly once, balances equal to their ledgers and never negative, money
 * conserved in the database and on chain, every event delivered to every
 * subscribed endpoint at least once or dead-lettered, no withdrawal sent twice,
 * rate limits exact per key across instances.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { erc20Abi, parseUnits, TransactionNotFoundError, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
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
      if ((res.status >= 500 || res.status === 409) && attempt < 60) {
        if (stats) stats.retries++;
        // Honour Retry-After (exchange_busy), capped; else a short backoff.
        const after = Number(res.headers.get('retry-after') ?? 0);
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
        const hash = await faucet.writeContract({ address: c.chain.token, abi, functionName: 'transfer', args: [res.body.depositAddress as Address, parseUnits(amount, 18)], nonce: n });
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
    const [r] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from invoices where id = any(${ids}::text[]) and status <> 'PAID_OUT'`));
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
          const body = { type: 'float', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: '12', toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };
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
    const [r] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from withdrawals where id = any(${wids}::text[]) and status not in ('COMPLETED', 'FAILED')`));
    return Number(r!.n);
  });
  const tids = `{${tenants.map((t) => t.id).join(',')}}`;
  await waitFor('webhook deliveries final', async () => {
    const [r] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*)::text as n from webhook_deliveries where tenant_id = any(${tids}::text[]) and status not in ('SUCCEEDED', 'DEAD_LETTER')`),
    );
    return Number(r!.n);
  });
  return { stats, paid, sent, exchangeIds };
}

export interface InvariantResult {
  name: string;
  ok: boolean;
  detail: string;
}

export async function checkInvariants(db: Db, c: Cluster, tenants: Tenant[], flow: Awaited<ReturnType<typeof runFlow>>): Promise<InvariantResult[]> {
  const out: InvariantResult[] = [];
  const tids = `{${tenants.map((t) => t.id).join(',')}}`;
  const ids = `{${flow.paid.map((p) => p.id).join(',')}}`;
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q));

  // 1. every paid invoice credited exactly once, for what was paid minus the fee
  const credits = await one<{ id: string; credits: string; settlements: string; credited: string; fee: string; received: string }>(sql`
    select i.id, i.amount_received::text as received, i.amount_credited::text as credited, i.fee_amount::text as fee,
           (select count(*) from settlements s where s.invoice_id = i.id and s.status = 'completed')::text as settlements,
           (select count(*) from ledger_entries l join settlements s on s.id = l.reference_id
             where s.invoice_id = i.id and l.kind = 'invoice_credit')::text as credits
      from invoices i where i.id = any(${ids}::text[])`);
  const paidById = new Map(flow.paid.map((p) => [p.id, p.amount]));
  const badCredit = credits.filter(
    (r) => r.credits !== r.settlements || r.settlements !== '1' || !new Decimal(r.received).eq(paidById.get(r.id)!) || !new Decimal(r.credited).plus(r.fee).eq(r.received),
  );
  out.push({ name: 'every paid invoice credited exactly once', ok: badCredit.length === 0 && credits.length === flow.paid.length, detail: `${credits.length} invoices, ${badCredit.length} wrong` });

  // 2. balance = ledger sum >= 0
  const balances = await one<{ tenant_id: string; available: string; ledger: string }>(sql`
    select b.tenant_id, b.available::text,
           (select coalesce(sum(amount), 0) from ledger_entries l where l.tenant_id = b.tenant_id and l.mode = b.mode and l.currency = b.currency)::text as ledger
      from balances b where b.tenant_id = any(${tids}::text[])`);
  const badBal = balances.filter((b) => !new Decimal(b.available).eq(b.ledger) || new Decimal(b.available).lt(0));
  out.push({ name: 'balances equal their ledger sums and are >= 0', ok: badBal.length === 0, detail: `${balances.length} balances, ${badBal.length} wrong` });

  // 3. money conserved: balances + invoice fees + withdrawals (amount + fee, not failed) = deposits paid
  const [m] = await one<{ bal: string; fees: string; wd: string }>(sql`
    select (select coalesce(sum(available), 0) from balances where tenant_id = any(${tids}::text[]))::text as bal,
           (select coalesce(sum(fee_amount), 0) from settlements where tenant_id = any(${tids}::text[]) and status = 'completed')::text as fees,
           (select coalesce(sum(case when kind = 'exchange' then amount else amount + fee_amount end), 0) from withdrawals
             where tenant_id = any(${tids}::text[]) and status <> 'FAILED')::text as wd`);
  const deposits = flow.paid.reduce((s, p) => s.plus(p.amount), new Decimal(0));
  const sum = new Decimal(m!.bal).plus(m!.fees).plus(m!.wd);
  out.push({ name: 'money conserved (balances + fees + withdrawals = deposits)', ok: sum.eq(deposits), detail: `${sum.toFixed()} vs ${deposits.toFixed()}` });

  // 3b. on chain: fee wallet + hot wallet + destinations = deposits (no USDT created or lost)
  const units = async (a: Address) => new Decimal((await c.chain.tokenBalance(a)).toString()).div(new Decimal(10).pow(18));
  let onChain = (await units(c.chain.addresses.fee)).plus(await units(c.chain.addresses.hot));
  for (const s of flow.sent) onChain = onChain.plus(await units(s.address));
  // Exchange withdrawals send the USDT to the order's deposit address (the simulator leaves it there).
  const exchangeRows = flow.exchangeIds.length
    ? await one<{ id: string; status: string; destination_address: string; amount: string }>(
        sql`select id, status, destination_address, amount::text from withdrawals where id = any(${`{${flow.exchangeIds.join(',')}}`}::text[])`,
      )
    : [];
  for (const s of exchangeRows) onChain = onChain.plus(await units(s.destination_address as Address));
  out.push({ name: 'on chain: fee + hot wallets + destinations = deposits', ok: onChain.eq(deposits), detail: `${onChain.toFixed()} vs ${deposits.toFixed()}` });

  // 4. no on-chain transfer sent twice: each destination holds exactly its withdrawal (0 if FAILED)
  const statuses = new Map(
    (await one<{ id: string; status: string }>(sql`select id, status from withdrawals where id = any(${`{${flow.sent.map((s) => s.id).join(',')}}`}::text[])`)).map((r) => [r.id, r.status]),
  );
  let twice = 0;
  let failed = 0;
  for (const s of flow.sent) {
    const got = await units(s.address);
    const status = statuses.get(s.id);
    if (status === 'FAILED') failed++;
    if (!got.eq(status === 'COMPLETED' ? s.amount : 0)) twice++;
  }
  for (const s of exchangeRows) {
    if (s.status === 'FAILED') failed++;
    if (!(await units(s.destination_address as Address)).eq(s.status === 'COMPLETED' ? s.amount : 0)) twice++;
  }
  out.push({
    name: 'no withdrawal sent twice (destination = amount)',
    ok: twice === 0,
    detail: `${flow.sent.length} internal + ${exchangeRows.length} exchange withdrawals, ${failed} failed, ${twice} wrong`,
  });

  // 4b. counted on chain: each withdrawal's destination got exactly one Transfer from the hot wallet, of its amount (none if FAILED)
  const allRows = await one<{ id: string; status: string; destination_address: string; net_amount: string }>(
    sql`select id, status, destination_address, net_amount::text from withdrawals where id = any(${`{${[...flow.sent.map((s) => s.id), ...flow.exchangeIds].join(',')}}`}::text[])`,
  );
  let notOnce = 0;
  let transfersSeen = 0;
  for (const w of allRows) {
    const logs = await c.chain.client.getContractEvents({
      address: c.chain.token,
      abi: erc20Abi,
      eventName: 'Transfer',
      args: { from: c.chain.addresses.hot, to: w.destination_address as Address },
      fromBlock: 0n,
    });
    transfersSeen += logs.length;
    const expected = w.status === 'COMPLETED' ? [parseUnits(w.net_amount, 18)] : [];
    if (logs.length !== expected.length || logs.some((l, i) => l.args.value !== expected[i])) notOnce++;
  }
  out.push({
    name: "each withdrawal's destination received its amount exactly once, counted on chain",
    ok: notOnce === 0 && allRows.length === flow.sent.length + flow.exchangeIds.length,
    detail: `${allRows.length} withdrawals, ${transfersSeen} transfers from the hot wallet to their destinations, ${notOnce} wrong`,
  });

  // 4c. no invoice event written twice for one transfer (same invoice, type and payments)
  const [dupEvents] = await one<{ n: string; total: string }>(sql`
    select (select count(*) from (select 1 from events where tenant_id = any(${tids}::text[]) and type like 'invoice.%'
              group by subject_id, type, data->'txHashes' having count(*) > 1) d)::text as n,
           (select count(*) from events where tenant_id = any(${tids}::text[]) and type like 'invoice.%')::text as total`);
  out.push({ name: 'no invoice event written twice for one transfer', ok: dupEvents!.n === '0', detail: `${dupEvents!.total} invoice events, ${dupEvents!.n} written twice` });

  // 5. every event delivered to every subscribed endpoint at least once, or dead-lettered
  const del = await one<{ status: string | null; url: string; event_id: string; endpoint_id: string }>(sql`
    select d.status, w.url, e.id as event_id, w.id as endpoint_id
      from events e join webhook_endpoints w on w.tenant_id = e.tenant_id and w.mode = e.mode and w.deleted_at is null and w.created_at <= e.created_at
      left join webhook_deliveries d on d.event_id = e.id and d.endpoint_id = w.id
     where e.tenant_id = any(${tids}::text[])`);
  let missing = 0;
  let unseen = 0;
  let dead = 0;
  let duplicates = 0;
  for (const d of del) {
    if (d.status !== 'SUCCEEDED' && d.status !== 'DEAD_LETTER') missing++;
    const path = new URL(d.url).pathname.slice(1);
    const got = c.receivers.seen.get(`${path}/${d.event_id}`) ?? 0;
    if (d.status === 'SUCCEEDED' && got === 0) unseen++;
    if (d.status === 'DEAD_LETTER') dead++;
    if (got > 1) duplicates++;
  }
  const deadOk = del.filter((d) => d.status === 'DEAD_LETTER').every((d) => d.url.includes('/dead/'));
  out.push({
    name: 'every event delivered to every endpoint, or dead-lettered',
    ok: missing === 0 && unseen === 0 && del.length > 0 && deadOk,
    detail: `${del.length} (event, endpoint) pairs, ${missing} not final, ${unseen} succeeded but unseen, ${dead} dead-lettered (only /dead: ${deadOk})`,
  });
  out.push({ name: 'deliveries received more than once (at-least-once; reported)', ok: true, detail: String(duplicates) });
  return out;
}

/** A key with a 40/min limit hit 60 times through the balancer (both instances): exactly 40 pass. */
export async function checkRateLimitAcrossInstances(db: Db, c: Cluster, tenantId: string): Promise<InvariantResult> {
  for (let round = 0; round < 3; round++) {
    // Start early in a window so the 60 requests do not straddle a minute boundary.
    const s = new Date().getSeconds();
    if (s > 45) await sleep((61 - s) * 1000);
    const { key } = await createTestKey(db, { tenantId, mode: 'test', scopes: ['admin'], rateLimitRpm: 40 });
    const results: { status: number; reset: string | null }[] = [];
    for (let batch = 0; batch < 6; batch++) {
      results.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, async () => {
            const res = await fetch(`${c.proxy.url}/v1/tenants/me`, { headers: { authorization: `Bearer ${key}` } });
            await res.arrayBuffer();
            return { status: res.status, reset: res.headers.get('x-ratelimit-reset') };
          }),
        )),
      );
    }
    if (new Set(results.map((r) => r.reset)).size !== 1) continue;
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429).length;
    return { name: 'rate limit exact per key across instances (40/min, 60 sent)', ok: ok === 40 && limited === 20, detail: `${ok} x 200, ${limited} x 429, proxy split ${c.proxy.counts.join('/')}` };
  }
  return { name: 'rate limit exact per key across instances', ok: false, detail: 'could not stay within one window' };
}
