/**
 * Watcher benchmark: 1,000,000 invoices in PostgreSQL, blocks of 1,000 token
 * Transfer logs of which 10 pay deposit addresses. Measures the processing of
 * one block without RPC (decode, recipient match, inserts, state moves,
 * events, cursor) — target under 50 ms.
 *   npx tsx bench/watcher.ts [invoices=1000000] [blocks=60]
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pad, toHex } from 'viem';
import { printTable, withBenchDatabase } from './lib/harness';
import type { invoices } from '@/db/schema';
import type { RawRow } from '@/lib/db/raw-row';

const INVOICES = Number(process.argv[2] ?? 1_000_000);
const BLOCKS = Number(process.argv[3] ?? 60);
const CHAIN_ID = 97_000;
const TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

await withBenchDatabase(async () => {
  const { getDb, rowsOf } = await import('@/lib/db');
  const { recordTransfers } = await import('@/lib/invoices/record-transfers');
  const { createTenant } = await import('@/lib/tenants/create-tenant');
  const db = await getDb();
  const { tenant } = await createTenant(db, { name: 'Bench' });

  let t0 = performance.now();
  // Synthetic deposit addresses: 40 hex chars from md5; HD derivation is not what is measured here.
  for (let start = 0; start < INVOICES; start += 250_000) {
    const end = Math.min(INVOICES, start + 250_000) - 1;
    await db.execute(sql`
      insert into invoices (id, tenant_id, mode, status, chain_id, deposit_address, address_index, amount_expected, confirmations_required, expires_at)
      select 'inv_bench' || g, ${tenant.id}, 'test', 'PENDING', ${CHAIN_ID},
             '0x' || substr(md5(g::text), 1, 20) || substr(md5((g + 7)::text), 1, 20), 1000000000 + g, 10, 5, now() + interval '1 day'
        from generate_series(${start}::int, ${end}::int) g`);
  }
  await db.execute(sql`analyze invoices`);
  console.log(`seeded ${INVOICES.toLocaleString()} invoices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const sample = rowsOf<RawRow<typeof invoices, { depositAddress: string }>>(
    await db.execute(sql`select deposit_address from invoices where chain_id = ${CHAIN_ID} order by random() limit ${BLOCKS * 10}`),
  ).map((r) => r.deposit_address);

  const net = { mode: 'test' as const, chain: 'BSC' as const, token: 'USDT' as const, chainId: CHAIN_ID, decimals: 18, confirmations: 5, tokenAddress: '0x55d398326f99059ff775485246999027b3197955' as const };
  const word = (addr: string) => pad(addr as `0x${string}`, { size: 32 });
  const times: number[] = [];
  const now = Math.floor(Date.now() / 1000);
  for (let b = 1; b <= BLOCKS; b++) {
    const blockHash = toHex(randomBytes(32));
    const logs = Array.from({ length: 1000 }, (_, i) => {
      const to = i % 100 === 0 ? sample[(b - 1) * 10 + i / 100]! : toHex(randomBytes(20));
      return {
        address: '0x55d398326f99059ff775485246999027b3197955',
        topics: [TOPIC, word(toHex(randomBytes(20))), word(to)],
        data: toHex(BigInt(1 + i) * 10n ** 18n, { size: 32 }),
        blockNumber: toHex(b),
        blockHash,
        transactionHash: toHex(randomBytes(32)),
        logIndex: toHex(i),
        blockTimestamp: toHex(now + b),
      };
    });
    t0 = performance.now();
    const r = await recordTransfers(db, net, {
      logs,
      to: { lastBlock: b, lastBlockHash: blockHash, lastBlockTime: new Date((now + b) * 1000) },
      blockTime: async () => now + b,
    });
    times.push(performance.now() - t0);
    if (r.inserted !== 10) throw new Error(`expected 10 matches, got ${r.inserted}`);
  }
  const steady = times.slice(5); // first blocks warm caches and JIT
  const mean = steady.reduce((a, x) => a + x, 0) / steady.length;
  console.log(
    `watcher: ${INVOICES.toLocaleString()} invoices, ${BLOCKS} blocks x 1000 transfers (10 matching): ` +
      `per block mean ${mean.toFixed(1)} ms, p50 ${pct(steady, 50).toFixed(1)} ms, p95 ${pct(steady, 95).toFixed(1)} ms, max ${Math.max(...steady).toFixed(1)} ms (target < 50 ms)`,
  );
  printTable(`Watcher: ${INVOICES.toLocaleString()} invoices, blocks of 1,000 transfers (10 matching), without RPC`, [
    { name: 'processing per block, mean ms', value: mean.toFixed(1), target: '< 50', ok: mean < 50 },
    { name: 'processing per block, p50 / p95 ms', value: `${pct(steady, 50).toFixed(1)} / ${pct(steady, 95).toFixed(1)}`, target: '', ok: null },
  ]);
});
process.exit(0);
