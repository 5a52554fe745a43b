import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { ADDRESS_RULES } from '@/lib/chain/address-rules';
import { rowsOf, type Db } from '@/lib/db';
import { call } from '@/lib/testing/app';
import { createTestKey } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { decideWithdrawalApproval } from '@/lib/withdrawal-controls/decide-withdrawal-approval';
import { listWithdrawalControls } from '@/lib/withdrawal-controls/list-withdrawal-controls';
import { updateWithdrawalControls } from '@/lib/withdrawal-controls/update-withdrawal-controls';
import { createPayout } from './create-payout';
import { decidePayoutApproval } from './decide-payout-approval';
import { parsePayoutCsv, payoutResultsCsv } from './payout-csv';
import { previewPayout } from './preview-payout';

/*
 * Issue 47 §1, the dashboard's side: the preview refuses each row by the very code POST /v1/payouts would (and
 * writes nothing), and a key's batch above the approval threshold waits for ONE decision of the owner.
 */
const OWNER = { kind: 'user' as const, id: 'usr_payouts', label: 'owner@example.com' };
let n = 0;
const ref = () => `dash-${process.pid}-${Date.now()}-${++n}`;

async function written(db: Db, tenantId: string) {
  return rowsOf<Record<string, string>>(
    await db.execute(sql`select
      (select count(*) from ledger_entries where tenant_id = ${tenantId})::text as ledger,
      (select count(*) from withdrawals where tenant_id = ${tenantId})::text as withdrawals,
      (select count(*) from payouts where tenant_id = ${tenantId})::text as payouts,
      (select count(*) from events where tenant_id = ${tenantId})::text as events`),
  )[0]!;
}

describe('payout preview (dashboard)', () => {
  it('shows each bad row with the code the API refuses it with, totals the good ones with fees, writes nothing', async () => {
    const t = await fundedTenant('100');
    const owner = { tenantId: t.tenant.id, mode: 'test' as const, tenant: { withdrawalFeeRate: '0.01' } };
    const csv = [
      'reference,destinationAddress,amount,chain,token',
      `${ref()},${freshAddress()},10.00,BSC,USDT`,
      `${ref()},${ADDRESS_RULES.tron.example},10.00,BSC,USDT`,
      `${ref()},${freshAddress()},0.001,BSC,USDT`,
      `${ref()},${freshAddress()},5.50,NOWHERE,USDT`,
    ].join('\n');
    const { rows, error } = parsePayoutCsv(csv);
    expect(error).toBeNull();
    const before = await written(t.db, t.tenant.id);
    const p = await previewPayout(t.db, owner, { items: rows }, OWNER, prepareWithdrawalControls);
    expect(await written(t.db, t.tenant.id)).toEqual(before);
    expect(p.invalidRows).toBe(3);
    expect(p.rows[0]).toMatchObject({ errors: [], feeAmount: '0.10', total: '10.10' });
    expect(p.rows[1]!.errors).toEqual([
      expect.objectContaining({
        field: 'destinationAddress',
        code: 'invalid_address',
        message: expect.stringContaining(`${ADDRESS_RULES.tron.name} address`),
      }),
    ]);
    expect(p.rows[2]!.errors.map((e) => [e.field, e.code])).toEqual([['amount', expect.stringMatching(/amount|validation/)]]);
    expect(p.rows[3]!.errors.map((e) => [e.field, e.code])).toEqual([['chain', 'validation_failed']]);
    expect(p.totals).toEqual([{ token: 'USDT', amount: '10.00', feeAmount: '0.10', total: '10.10', available: '100.00', short: null }]);
    expect(p.held).toBe(false);

    // The API refuses the same rows with the same codes (the preview is its checks, not a copy of them).
    const api = await call('POST', '/v1/payouts', { key: t.test, body: { items: rows.slice(0, 3) } });
    expect(api.status, api.text).toBe(400);
    const byRow = (i: number) =>
      api.body.details.filter((d: { path: string }) => d.path.startsWith(`items[${i}]`)).map((d: { code: string }) => d.code);
    expect(byRow(1)).toEqual(p.rows[1]!.errors.map((e) => e.code));
    expect(byRow(2)).toEqual(p.rows[2]!.errors.map((e) => e.code));
  });

  it('names the shortfall per asset before anything is debited', async () => {
    const t = await fundedTenant('10');
    const owner = { tenantId: t.tenant.id, mode: 'test' as const, tenant: { withdrawalFeeRate: '0.01' } };
    const items = [{ reference: ref(), destinationAddress: freshAddress(), amount: '10.00', chain: 'BSC', token: 'USDT' }];
    const p = await previewPayout(t.db, owner, { items }, OWNER, prepareWithdrawalControls);
    expect(p.totals[0]).toMatchObject({ total: '10.10', available: '10.00', short: '0.10' });
  });
});

describe('approval of a batch (API key above the threshold)', () => {
  it("holds every item when the batch's total is above the threshold, and the owner decides it ONCE", async () => {
    const t = await fundedTenant('200');
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const s = { owner, user: { id: 'usr_payouts', email: 'owner@example.com' }, actor: OWNER };
    await updateWithdrawalControls(t.db, s as never, { allowlistEnabled: false, coolingOffHours: 0, dailyLimit: '', approvalThreshold: '50' });
    const key = (await createTestKey(t.db, { ...owner, scopes: ['withdrawals:write'] })).key;
    const batch = () =>
      [20, 20, 20].map((a) => ({ reference: ref(), destinationAddress: freshAddress(), amount: `${a}.00`, chain: 'BSC', token: 'USDT' }));

    // Each item is under 50; the batch (60) is not: split items never escape the threshold.
    const res = await call('POST', '/v1/payouts', { key, body: { items: batch() } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.awaitingApproval).toBe(true);
    expect(res.body.items.map((i: { pendingReason: string }) => i.pendingReason)).toEqual(Array(3).fill('awaiting_approval'));
    // One approval: the items are not in the per-withdrawal list, and cannot be decided one by one.
    expect((await listWithdrawalControls(t.db, owner)).awaitingApproval).toEqual([]);
    await expect(decideWithdrawalApproval(t.db, s as never, res.body.items[0].withdrawalId, 'approve', {})).rejects.toMatchObject({
      code: 'invalid_state',
    });

    const approved = await decidePayoutApproval(t.db, s as never, res.body.id, 'approve', {});
    expect(approved.awaitingApproval).toBe(false);
    expect(approved.items.map((i) => [i.status, i.pendingReason])).toEqual(Array(3).fill(['PENDING', null]));
    await expect(decidePayoutApproval(t.db, s as never, res.body.id, 'approve', {})).rejects.toBeInstanceOf(ApiError);

    // Rejected as one: every item FAILED, amounts and fees back.
    const before = (await call('GET', '/v1/withdrawals/balance', { key })).body.available;
    const second = await call('POST', '/v1/payouts', { key, body: { items: batch() } });
    expect(second.status, second.text).toBe(201);
    const rejected = await decidePayoutApproval(t.db, s as never, second.body.id, 'reject', {});
    expect(rejected.counts).toEqual({ pending: 0, completed: 0, failed: 3 });
    expect(rejected.status).toBe('COMPLETED');
    expect((await call('GET', '/v1/withdrawals/balance', { key })).body.available).toBe(before);

    // The owner's own batch in the dashboard is not held (the controls bind keys; the owner is who approves).
    const mine = await createPayout(
      t.db,
      { ...owner, tenant: { withdrawalFeeRate: '0.01' } },
      { items: batch() } as never,
      OWNER,
      prepareWithdrawalControls,
    );
    expect(mine.awaitingApproval).toBe(false);
  });
});

describe('payout CSV', () => {
  it('reads quoted cells, any column order and a BOM; refuses a missing column; writes results safe for spreadsheets', () => {
    const { rows } = parsePayoutCsv('\uFEFFamount,chain,token,reference,destinationAddress\r\n"1,000.00",BSC,USDT,"a ""b""",0xabc\r\n\r\n');
    expect(rows).toEqual([{ destinationAddress: '0xabc', amount: '1,000.00', chain: 'BSC', token: 'USDT', reference: 'a "b"' }]);
    expect(parsePayoutCsv('amount,chain\n1,BSC').error).toMatch(/Missing columns: destinationAddress, token, reference/);
    const csv = payoutResultsCsv({
      items: [
        {
          position: 0,
          reference: '=cmd()',
          status: 'COMPLETED',
          chain: 'BSC',
          token: 'USDT',
          destinationAddress: '0xabc',
          amount: '1.00',
          feeAmount: '0.51',
          networkFeeReserved: '0.50',
          networkFee: '0.02',
          netAmount: '1.00',
          txHash: '0x1',
          withdrawalId: 'wd_1',
          failureReason: null,
        },
      ],
    } as never);
    expect(csv.split('\r\n')[1]).toBe("0,'=cmd(),COMPLETED,BSC,USDT,0xabc,1.00,0.51,0.50,0.02,1.00,0x1,wd_1,");
  });
});
