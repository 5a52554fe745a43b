/**
 * Statements and round trips to PostgreSQL per money-moving request (issue 50), in-process against real
 * PostgreSQL: the route handlers themselves (`POST /v1/withdrawals`, `POST /v1/invoices`, auth included),
 * counted at this process's sockets (bench/lib/count-statements.ts; pg_stat_statements would need a server
 * restart). "Locked" is the round trips during which the tenant's balance row is held locked: from the one
 * sending the locking statement to the answer that ends its transaction. `BENCH_VERBOSE=1` prints each statement.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { POST as postWithdrawal } from '@/app/v1/withdrawals/route';
import { POST as postInvoice } from '@/app/v1/invoices/route';
import { getNetwork } from '@/lib/chain/network';
import { refillAddressPool } from '@/lib/chain/refill-address-pool';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { newId } from '@/lib/ids';
import { createTestTenant } from '@/lib/testing/fixtures';
import { countStatements, type Counted } from './lib/count-statements';
import { withBenchDatabase } from './lib/harness';

const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const LOCKING = /for update|update balances/i;
const ctx = { params: Promise.resolve({}) };

async function tenant(name: string) {
  const t = await createTestTenant({ name });
  await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId: t.tenant.id,
      mode: 'test',
      amount: '1000000',
      kind: 'test_credit',
      referenceType: 'bench',
      referenceId: `bench-${t.tenant.id}`,
      currency: 'USDT',
    }),
  );
  return t;
}

const request = (path: string, key: string, body: unknown) =>
  new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });

/** The median call of `n` after `warm` unmeasured ones (caches warm, connections open). */
async function measure(call: () => Promise<Response>, locking: RegExp | null = LOCKING, n = 5, warm = 3): Promise<Counted> {
  for (let i = 0; i < warm; i++) await expect201(call());
  const runs: Counted[] = [];
  for (let i = 0; i < n; i++)
    runs.push(await countStatements(() => expect201(call()), locking, Number(new URL(process.env.DATABASE_URL!).port || 5432)));
  runs.sort((a, b) => a.roundTrips - b.roundTrips);
  return runs[Math.floor(n / 2)]!;
}

async function expect201(p: Promise<Response>) {
  const r = await p;
  if (r.status !== 201) throw new Error(`${r.status} ${await r.text()}`);
}

await withBenchDatabase(async () => {
  const rows: [string, Counted][] = [];
  const plain = await tenant('Stmts plain');
  rows.push([
    'POST /v1/withdrawals, no controls',
    await measure(() => postWithdrawal(request('/v1/withdrawals', plain.test, { amount: '0.01', destinationAddress: DEST }), ctx)),
  ]);

  const all = await tenant('Stmts controls');
  const id = all.tenant.id;
  await all.db.execute(sql`insert into withdrawal_controls (tenant_id, mode, allowlist_enabled, daily_limit, approval_threshold)
                           values (${id}, 'test', true, '1000000', '1000')`);
  await all.db.execute(sql`insert into withdrawal_allowlist (id, tenant_id, mode, address, active_at)
                           values (${newId('allowlistEntry')}, ${id}, 'test', ${DEST.toLowerCase()}, now() - interval '1 day')`);
  rows.push([
    'POST /v1/withdrawals, every control on',
    await measure(() => postWithdrawal(request('/v1/withdrawals', all.test, { amount: '0.01', destinationAddress: DEST }), ctx)),
  ]);

  const inv = await tenant('Stmts invoices');
  const invoice = () => postInvoice(request('/v1/invoices', inv.test, { amount: '12.50' }), ctx);
  await inv.db.execute(sql`delete from deposit_address_pool`).catch(() => {});
  rows.push(['POST /v1/invoices, empty address pool', await measure(invoice, null)]);
  await refillAddressPool(inv.db, getNetwork('test', 'BSC').depositMnemonic!, { target: 50 });
  rows.push(['POST /v1/invoices, pooled address', await measure(invoice, null)]);

  console.log(
    `\nStatements per request (load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, median of 5 after 3 warm-up calls)\n`,
  );
  console.log('| figure | value | target | ok |');
  console.log('|---|---|---|---|');
  for (const [name, c] of rows)
    console.log(
      `| ${name}: statements / round trips / round trips with the balance row locked | ${c.statements} / ${c.roundTrips} / ${name.includes('invoices') ? '–' : c.lockedRoundTrips} | | |`,
    );
  if (process.env.BENCH_VERBOSE === '1') for (const [name, c] of rows) console.log(`\n${name}:\n  ${c.texts.join('\n  ')}`);
});
process.exit(0);
