import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { invoices } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { getDb, rowsOf, type Db } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { getBalance } from '@/lib/ledger/get-balance';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { parseCsv } from './parse-csv';

let chain: AnvilChain;
let net: Network;
withTestChain((c) => {
  chain = c;
  net = c.network('test');
});

interface Parsed {
  opening: Decimal;
  closing: Decimal;
  rows: Record<string, string>[];
}

/** The statement as an accountant's spreadsheet reads it. */
async function statement(key: string, q: Record<string, string>): Promise<Parsed> {
  const res = await call('GET', `/v1/balance-transactions/statement?${new URLSearchParams(q)}`, { key });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="statement-test-/);
  const [header, ...lines] = parseCsv(res.text);
  const rows = lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
  const first = rows.shift()!;
  const last = rows.pop()!;
  expect(first.type).toBe('opening_balance');
  expect(last.type).toBe('closing_balance');
  return { opening: new Decimal(first.balance!), closing: new Decimal(last.balance!), rows };
}

describe('GET /v1/balance-transactions', () => {
  it('lists a payment credit (gross, fee, net, network, sweep hash, fiat), a withdrawal and its fee, newest first, filtered', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '20.00' } });
    const pay = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '20.00' } });
    await chain.client.waitForTransactionReceipt({ hash: pay.body.txHash as Hex });
    for (let i = 0; i < 4; i++) {
      await chain.mine(6);
      await jobs();
    }
    // As if priced at 18.40 EUR (rate 1.086956... USDT per EUR): the credit carries its fiat value.
    await t.db.update(invoices).set({ priceCurrency: 'EUR', priceAmount: '18.40', rate: '1.25' }).where(eq(invoices.id, inv.body.id));
    const wd = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: '5.00', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
    });
    expect(wd.status, wd.text).toBe(201);
    await processWithdrawals(t.db, net as LaneNetwork);
    await chain.mine(6);
    await processWithdrawals(t.db, net as LaneNetwork);
    // An entry kind this code does not know (another feature's): listed as an adjustment, not an error.
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: '0.25',
        kind: 'brand_new_kind',
        referenceType: 'promo',
        referenceId: `p-${t.tenant.id}`,
        currency: 'USDT',
      }),
    );

    const res = await call('GET', '/v1/balance-transactions', { key: t.test });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ total: 4, page: 1, lastPage: 1 });
    // The withdrawal and its fee are posted in one statement (same time): their order between them is the ids'.
    const types = res.body.data.map((d: { type: string }) => d.type);
    expect([types[0], [...types.slice(1, 3)].sort(), types[3]]).toEqual(['adjustment', ['withdrawal', 'withdrawal_fee'], 'payment_credit']);
    const byType = (type: string) => res.body.data.find((d: { type: string }) => d.type === type);
    const [adj, fee, withdrawal, credit] = ['adjustment', 'withdrawal_fee', 'withdrawal', 'payment_credit'].map(byType);
    expect(credit).toMatchObject({
      amount: '20.00',
      fee: '0.20',
      net: '19.80',
      asset: 'USDT',
      network: 'BSC',
      sourceType: 'settlement',
      invoiceId: inv.body.id,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      balanceAfter: '19.80',
      fiat: { currency: 'EUR', amount: '15.84', rate: '1.25' },
    });
    expect(withdrawal).toMatchObject({
      net: '-5.00',
      amount: '-5.00',
      fee: '0.00',
      network: 'BSC',
      sourceId: wd.body.id,
      txHash: expect.stringMatching(/^0x/),
    });
    expect(fee).toMatchObject({ net: '-0.05', balanceAfter: '14.75', network: 'BSC' });
    expect(adj).toMatchObject({ type: 'adjustment', net: '0.25', network: null, description: 'Adjustment (brand_new_kind)', balanceAfter: '15.00' });

    const only = async (q: string) =>
      (await call('GET', `/v1/balance-transactions?${q}`, { key: t.test })).body.data.map((d: { id: string }) => d.id);
    expect(await only('type=payment_credit')).toEqual([credit.id]);
    expect((await only('network=BSC&limit=2')).sort()).toEqual([fee.id, withdrawal.id].sort());
    expect(await only('network=ETHEREUM')).toEqual([]);
    expect(await only('asset=USDC')).toEqual([]);
    expect(await only(`createdTo=${encodeURIComponent(credit.createdAt)}`)).toEqual([]);
    expect((await only(`createdFrom=${encodeURIComponent(credit.createdAt)}`)).length).toBe(4);
    for (const bad of ['type=nope', 'network=MARS', 'createdFrom=yesterday', 'limit=101', 'colour=red']) {
      expect((await call('GET', `/v1/balance-transactions?${bad}`, { key: t.test })).status, bad).toBe(400);
    }
    // Another tenant sees none of it.
    const other = await createTestTenant();
    expect((await call('GET', '/v1/balance-transactions', { key: other.test })).body.meta.total).toBe(0);

    // The statement of the same: opening 0, the four entries, closing = the balance; the invoice CSV knows the network and token.
    const s = await statement(t.test, { asset: 'USDT', from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' });
    expect(s.opening.toFixed()).toBe('0');
    expect(s.rows.map((r) => r.type).sort()).toEqual(['adjustment', 'payment_credit', 'withdrawal', 'withdrawal_fee']);
    expect(s.rows[0]).toMatchObject({
      amount: '20.00',
      fee: '0.20',
      net: '19.80',
      balance: '19.80',
      network: 'BSC',
      fiat_currency: 'EUR',
      fiat_amount: '15.84',
    });
    expect(s.closing.toFixed(2)).toBe(
      await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' }).then((b) => new Decimal(b).toFixed(2)),
    );
    const bad = await call('GET', '/v1/balance-transactions/statement?asset=USDT&from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z', { key: t.test });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });
});

const KINDS = ['invoice_credit', 'withdrawal', 'withdrawal_fee', 'withdrawal_refund', 'network_fee', 'some_future_kind'];
/** Up to 18 decimals, as the ledger holds them. */
const amount = fc
  .tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 18 }))
  .map(([units, frac, scale]) => new Decimal(`${units}.${String(frac).padStart(6, '0')}`).toDecimalPlaces(scale, Decimal.ROUND_DOWN));
const entry = fc.record({ amount, debit: fc.boolean(), kind: fc.constantFrom(...KINDS), minute: fc.integer({ min: 0, max: 60 * 24 * 365 }) });

const BASE = Date.parse('2025-01-01T00:00:00.000Z');
const at = (minute: number) => new Date(BASE + minute * 60_000).toISOString();

/** Posts the history through the ledger (debits the balance cannot pay are refused and skipped), then spreads it over a year. */
async function post(db: Db, tenantId: string, history: { amount: Decimal; debit: boolean; kind: string; minute: number }[]) {
  const kept: { amount: Decimal; minute: number }[] = [];
  let seq = 0;
  for (const h of history) {
    const signed = h.debit ? h.amount.neg() : h.amount;
    if (signed.isZero()) continue;
    const id = await db
      .transaction(async (tx) => {
        await postLedgerEntry(tx, {
          tenantId,
          mode: 'test',
          amount: signed.toFixed(),
          kind: h.kind,
          referenceType: 'test',
          referenceId: `${tenantId}-${++seq}`,
          currency: 'USDT',
        });
        const [row] = rowsOf<{ id: string }>(
          await tx.execute(sql`select id from ledger_entries where tenant_id = ${tenantId} and reference_id = ${`${tenantId}-${seq}`}`),
        );
        return row!.id;
      })
      .catch((err: { code?: string }) => {
        if (err.code === 'insufficient_balance') return null;
        throw err;
      });
    if (!id) continue;
    // Posting time is now(); the statement's periods need a history spread over time (test only).
    await db.execute(sql`update ledger_entries set created_at = ${at(h.minute)}::timestamptz where id = ${id}`);
    kept.push({ amount: signed, minute: h.minute });
  }
  return kept;
}

describe('statement', () => {
  it('opening + entries = closing to the last decimal, for any history and any period; periods chain; the whole history closes at the balance', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: -10, max: 60 * 24 * 365 + 10 }),
        fc.integer({ min: 1, max: 60 * 24 * 200 }),
        fc.integer({ min: 1, max: 60 * 24 * 200 }),
        async (history, start, len1, len2) => {
          const t = await createTestTenant();
          const kept = await post(db, t.tenant.id, history);
          const [a, m, b] = [start, start + len1, start + len1 + len2];
          const sumBefore = (minute: number) => kept.filter((k) => k.minute < minute).reduce((s, k) => s.plus(k.amount), new Decimal(0));
          const first = await statement(t.test, { asset: 'USDT', from: at(a), to: at(m) });
          const second = await statement(t.test, { asset: 'USDT', from: at(m), to: at(b) });
          for (const [s, from, to] of [
            [first, a, m],
            [second, m, b],
          ] as const) {
            expect(s.opening.eq(sumBefore(from)), 'opening').toBe(true);
            expect(s.closing.eq(sumBefore(to)), 'closing').toBe(true);
            expect(s.rows.length).toBe(kept.filter((k) => k.minute >= from && k.minute < to).length);
            let running = s.opening;
            for (const r of s.rows) {
              running = running.plus(r.net!);
              expect(new Decimal(r.balance!).eq(running), 'running balance').toBe(true);
            }
            expect(running.eq(s.closing), 'opening + entries = closing').toBe(true);
          }
          expect(first.closing.eq(second.opening), 'periods chain').toBe(true);
          const all = await statement(t.test, { asset: 'USDT', from: at(-100), to: at(60 * 24 * 400) });
          expect(all.closing.eq(await getBalance(db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDT' })), 'closing = balance').toBe(true);
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
