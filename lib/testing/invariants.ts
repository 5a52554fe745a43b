/**
 * The money invariants checked after a scale or fault run (Jepsen's bank test,
 * adapted): credits once, balances = ledger >= 0, money conserved in the
 * database and on chain, each withdrawal paid exactly once, no event written
 * twice, every event delivered or dead-lettered. Read-only: they look at the
 * database, the chain and what the receivers saw.
 */
import { sql } from 'drizzle-orm';
import { erc20Abi, parseUnits, type Address } from 'viem';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from './anvil';
import { createTestKey } from './fixtures';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/** What the run exposes to the checks: its chain, what its webhook receivers answered 200 to, its load balancer. */
export interface Observed {
  chain: Pick<AnvilChain, 'tokenBalance' | 'addresses' | 'client' | 'token'>;
  /** `${behaviour}/${endpoint}/${eventId}` -> answered-200 count. */
  receivers: { seen: Map<string, number> };
  proxy: { url: string; counts: number[] };
}

/** What the run did: invoices paid (exact amounts), USDT withdrawals sent, exchange withdrawals placed. */
export interface FlowRecord {
  paid: { id: string; amount: string }[];
  sent: { id: string; address: Address; amount: string }[];
  exchangeIds: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface InvariantResult {
  name: string;
  ok: boolean;
  detail: string;
}

export async function checkInvariants(db: Db, c: Observed, tenants: { id: string }[], flow: FlowRecord): Promise<InvariantResult[]> {
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
    (r) =>
      r.credits !== r.settlements ||
      r.settlements !== '1' ||
      !new Decimal(r.received).eq(paidById.get(r.id)!) ||
      !new Decimal(r.credited).plus(r.fee).eq(r.received),
  );
  out.push({
    name: 'every paid invoice credited exactly once',
    ok: badCredit.length === 0 && credits.length === flow.paid.length,
    detail: `${credits.length} invoices, ${badCredit.length} wrong`,
  });

  // 2. balance = ledger sum >= 0
  const balances = await one<{ tenant_id: string; available: string; ledger: string }>(sql`
    select b.tenant_id, b.available::text,
           (select coalesce(sum(amount), 0) from ledger_entries l where l.tenant_id = b.tenant_id and l.mode = b.mode and l.currency = b.currency)::text as ledger
      from balances b where b.tenant_id = any(${tids}::text[])`);
  const badBal = balances.filter((b) => !new Decimal(b.available).eq(b.ledger) || new Decimal(b.available).lt(0));
  out.push({
    name: 'balances equal their ledger sums and are >= 0',
    ok: badBal.length === 0,
    detail: `${balances.length} balances, ${badBal.length} wrong`,
  });

  // 3. money conserved: balances + invoice fees + withdrawals (what each took, not failed) = deposits paid. What an internal
  // withdrawal took is its entries: amount + fee on top, or only amount when a refund's fee is inside it, less an invoice
  // fee a refund returned.
  const [m] = await one<{ bal: string; fees: string; wd: string }>(sql`
    select (select coalesce(sum(available), 0) from balances where tenant_id = any(${tids}::text[]))::text as bal,
           (select coalesce(sum(fee_amount), 0) from settlements where tenant_id = any(${tids}::text[]) and status = 'completed')::text as fees,
           ((select coalesce(sum(amount), 0) from withdrawals
              where tenant_id = any(${tids}::text[]) and status <> 'FAILED' and kind = 'exchange')
            + (select coalesce(-sum(l.amount), 0) from ledger_entries l join withdrawals w on w.id = l.reference_id
                where w.tenant_id = any(${tids}::text[]) and w.status <> 'FAILED' and w.kind <> 'exchange'
                  and l.kind in ('withdrawal', 'withdrawal_fee', 'network_fee', 'invoice_fee_refund')))::text as wd`);
  const deposits = flow.paid.reduce((s, p) => s.plus(p.amount), new Decimal(0));
  const sum = new Decimal(m!.bal).plus(m!.fees).plus(m!.wd);
  out.push({
    name: 'money conserved (balances + fees + withdrawals = deposits)',
    ok: sum.eq(deposits),
    detail: `${sum.toFixed()} vs ${deposits.toFixed()}`,
  });

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
  for (const s of exchangeRows) onChain = onChain.plus(await units(EVM_ADDRESS_CODEC.parse(s.destination_address)));
  out.push({
    name: 'on chain: fee + hot wallets + destinations = deposits',
    ok: onChain.eq(deposits),
    detail: `${onChain.toFixed()} vs ${deposits.toFixed()}`,
  });

  // 4. no on-chain transfer sent twice: each destination holds exactly its withdrawal (0 if FAILED)
  const statuses = new Map(
    (
      await one<{ id: string; status: string }>(
        sql`select id, status from withdrawals where id = any(${`{${flow.sent.map((s) => s.id).join(',')}}`}::text[])`,
      )
    ).map((r) => [r.id, r.status]),
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
    if (!(await units(EVM_ADDRESS_CODEC.parse(s.destination_address))).eq(s.status === 'COMPLETED' ? s.amount : 0)) twice++;
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
      args: { from: c.chain.addresses.hot, to: EVM_ADDRESS_CODEC.parse(w.destination_address) },
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
  out.push({
    name: 'no invoice event written twice for one transfer',
    ok: dupEvents!.n === '0',
    detail: `${dupEvents!.total} invoice events, ${dupEvents!.n} written twice`,
  });

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
export async function checkRateLimitAcrossInstances(db: Db, c: Observed, tenantId: string): Promise<InvariantResult> {
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
    return {
      name: 'rate limit exact per key across instances (40/min, 60 sent)',
      ok: ok === 40 && limited === 20,
      detail: `${ok} x 200, ${limited} x 429, proxy split ${c.proxy.counts.join('/')}`,
    };
  }
  return { name: 'rate limit exact per key across instances', ok: false, detail: 'could not stay within one window' };
}
