import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, type Db } from '@/lib/db';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoicesCsv } from './invoices-csv';
import { parseInvoiceFilters } from './invoice-filters';
import { listDashboardInvoices } from './list-invoices';
import { getOverviewStats } from './overview-stats';
import { can } from './permissions';

const network = { chain: 'BSC' as const, chainId: 31337, confirmations: 5, depositMnemonic: DEV_MNEMONIC };
let db: Db;
let a: { tenantId: string };
let b: { tenantId: string };
let ids: { a1: string; a2: string; aLive: string; b1: string; a1Address: string };

beforeAll(async () => {
  const ta = await createTestTenant();
  const tb = await createTestTenant();
  db = ta.db;
  a = { tenantId: ta.tenant.id };
  b = { tenantId: tb.tenant.id };
  const mk = (owner: { tenantId: string }, mode: 'live' | 'test', body: Record<string, unknown>) =>
    createInvoice(db, { ...owner, mode }, network, CreateInvoiceBody.parse(body));
  const a1 = await mk(a, 'test', { amount: '10.00', externalId: '=cmd|evil', description: 'Coffee, "large"' });
  const a2 = await mk(a, 'test', { amount: '20.50', externalId: 'order-2' });
  const aLive = await mk(a, 'live', { amount: '30.00', externalId: 'order-2' });
  const b1 = await mk(b, 'test', { amount: '40.00', externalId: 'order-2' });
  ids = { a1: a1.id, a2: a2.id, aLive: aLive.id, b1: b1.id, a1Address: a1.depositAddress };
});
afterAll(async () => {
  await closeDb();
});

describe('dashboard invoice list', () => {
  it('shows only the tenant and mode of the session', async () => {
    const { data } = await listDashboardInvoices(db, { ...a, mode: 'test' }, parseInvoiceFilters({}));
    expect(data.map((i) => i.id).sort()).toEqual([ids.a1, ids.a2].sort());
    const live = await listDashboardInvoices(db, { ...a, mode: 'live' }, parseInvoiceFilters({}));
    expect(live.data.map((i) => i.id)).toEqual([ids.aLive]);
  });

  it('searches by id, externalId and deposit address (any case) without leaking other tenants', async () => {
    const q = (value: string) => listDashboardInvoices(db, { ...a, mode: 'test' }, parseInvoiceFilters({ q: value }));
    expect((await q(ids.a2)).data.map((i) => i.id)).toEqual([ids.a2]);
    expect((await q('order-2')).data.map((i) => i.id)).toEqual([ids.a2]);
    expect((await q(ids.a1Address.toUpperCase().replace('0X', '0x'))).data.map((i) => i.id)).toEqual([ids.a1]);
    expect((await q(ids.b1)).data).toEqual([]);
  });

  it('filters by status and date range and pages; junk URL values fall back to defaults', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const f = parseInvoiceFilters({ status: 'PENDING', from: today, to: today, page: '1' });
    expect((await listDashboardInvoices(db, { ...a, mode: 'test' }, f)).meta.total).toBe(2);
    expect((await listDashboardInvoices(db, { ...a, mode: 'test' }, parseInvoiceFilters({ status: 'PAID_OUT' }))).meta.total).toBe(0);
    expect((await listDashboardInvoices(db, { ...a, mode: 'test' }, parseInvoiceFilters({ from: '2000-01-01', to: '2000-01-02' }))).meta.total).toBe(
      0,
    );
    const paged = await listDashboardInvoices(db, { ...a, mode: 'test' }, parseInvoiceFilters({ page: '2' }), 1);
    expect(paged.meta).toEqual({ total: 2, page: 2, lastPage: 2 });
    expect(parseInvoiceFilters({ status: 'NOPE', from: 'yesterday', page: '-3' })).toEqual({ page: 1 });
  });

  it('exports CSV with exact amounts, quoting and spreadsheet-formula neutralising', async () => {
    let csv = '';
    for await (const chunk of invoicesCsv(db, { ...a, mode: 'test' }, parseInvoiceFilters({}))) csv += chunk;
    const lines = csv.trim().split('\n');
    expect(lines[0]).toMatch(/^id,status,network,token,amountExpected,/);
    expect(lines).toHaveLength(3);
    const row = lines.find((l) => l.startsWith(ids.a1))!;
    expect(row).toMatch(/^inv_\w+,PENDING,BSC,USDT,10\.00,/);
    expect(row).toContain(',10.00,');
    expect(row).toContain(",'=cmd|evil,");
    expect(row).toContain('"Coffee, ""large"""');
  });
});

describe('overview stats', () => {
  it('fills every day of the period and counts invoices by status', async () => {
    const stats = await getOverviewStats(db, { ...a, mode: 'test' }, 7);
    expect(stats.series).toHaveLength(7);
    expect(stats.series.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(stats.series.every((p) => p.received === '0.00' && p.fees === '0.00')).toBe(true);
    expect(stats.invoicesByStatus).toEqual([{ status: 'PENDING', count: 2 }]);
  });
});

describe('roles', () => {
  it('members cannot manage keys, team, settings, products or withdraw; owners can', () => {
    for (const p of [
      'keys:manage',
      'team:manage',
      'settings:manage',
      'withdrawals:create',
      'secrets:reveal',
      'products:manage',
      'payment-links:manage',
      'held-payments:resolve',
    ] as const) {
      expect(can('member', p)).toBe(false);
      expect(can('owner', p)).toBe(true);
      expect(can('support', p)).toBe(false);
    }
    expect(can('member', 'invoices:create')).toBe(true);
    // Members are staff who fulfil and cancel store orders day to day.
    expect(can('member', 'orders:manage')).toBe(true);
    expect(can('support', 'orders:manage')).toBe(false);
  });
});
