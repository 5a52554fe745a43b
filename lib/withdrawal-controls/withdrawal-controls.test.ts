import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, events, users, withdrawalAllowlist, withdrawals } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { generateTotpSecret, totpCode } from '@/lib/auth/totp';
import { sealSecret } from '@/lib/crypto/secret-box';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from './add-allowlist-address';
import { decideWithdrawalApproval } from './decide-withdrawal-approval';
import { prepareWithdrawalControls } from './enforce-withdrawal-controls';
import { listWithdrawalControls } from './list-withdrawal-controls';
import { removeAllowlistAddress } from './remove-allowlist-address';
import { updateWithdrawalControls, type OwnerSession } from './update-withdrawal-controls';

const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const OTHER = '0x1111111111111111111111111111111111111111';
let seq = 0;

async function setup(balance = '100') {
  const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
  const user = await createUser(t.db, {
    email: `owner-${process.pid}-${++seq}@example.com`,
    password: 'correct horse battery',
    role: 'owner',
    tenantId: t.tenant.id,
  });
  const s: OwnerSession = { owner: { tenantId: t.tenant.id, mode: 'test' }, user, actor: userActor({ user }) };
  if (balance !== '0') {
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: balance,
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `wc-${process.pid}-${++seq}`,
        currency: 'USDT',
      }),
    );
  }
  return { ...t, s };
}

const controls = (
  over: Partial<{ allowlistEnabled: boolean; coolingOffHours: number; dailyLimit: string | null; approvalThreshold: string | null }>,
) => ({
  allowlistEnabled: false,
  coolingOffHours: 24,
  dailyLimit: null,
  approvalThreshold: null,
  ...over,
});

async function ledgerAndBalance(db: Db, tenantId: string) {
  const [r] = rowsOf<{ sum: string; balance: string }>(
    await db.execute(sql`select coalesce((select sum(amount) from ledger_entries where tenant_id = ${tenantId} and mode = 'test'), 0)::text as sum,
                                coalesce((select available from balances where tenant_id = ${tenantId} and mode = 'test'), 0)::text as balance`),
  );
  return { sum: Number(r!.sum).toFixed(6), balance: Number(r!.balance).toFixed(6) };
}

const withdraw = (key: string, amount: string, destinationAddress = DEST) =>
  call('POST', '/v1/withdrawals', { key, body: { amount, destinationAddress } });

describe('destination allow-list', () => {
  it('off by default: any valid destination is accepted', async () => {
    const t = await setup();
    expect((await withdraw(t.test, '1.00')).status).toBe(201);
  });

  it('when on, refuses unlisted and cooling-off addresses (403 destination_not_allowed), accepts after cooling-off, and removal is immediate', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ allowlistEnabled: true, coolingOffHours: 24 }));
    const refused = await withdraw(t.test, '1.00');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('destination_not_allowed');

    // Checksum case on the form, lower case on the withdrawal: the same address.
    const entry = await addAllowlistAddress(t.db, t.s, { address: DEST, label: 'cold wallet' });
    expect(entry.activeAt.getTime() - entry.createdAt.getTime()).toBe(24 * 3600_000);
    const cooling = await withdraw(t.test, '1.00', DEST.toLowerCase());
    expect(cooling.status).toBe(403);
    expect(cooling.body.code).toBe('destination_not_allowed');
    expect((await listWithdrawalControls(t.db, t.s.owner)).addresses[0]).toMatchObject({ active: false, label: 'cold wallet' });

    // The cooling-off period has passed (the clock is the stored activeAt).
    await t.db
      .update(withdrawalAllowlist)
      .set({ activeAt: new Date(Date.now() - 1000) })
      .where(eq(withdrawalAllowlist.id, entry.id));
    expect((await withdraw(t.test, '1.00', DEST.toLowerCase())).status).toBe(201);
    expect((await withdraw(t.test, '1.00', OTHER)).body.code).toBe('destination_not_allowed');
    // Nothing was debited for the refused ones.
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('98.99');

    await removeAllowlistAddress(t.db, t.s, entry.id, {});
    expect((await withdraw(t.test, '1.00')).body.code).toBe('destination_not_allowed');

    const actions = (await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.tenantId, t.tenant.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['withdrawal_controls.updated', 'withdrawal_allowlist.added', 'withdrawal_allowlist.removed']));
  });

  it("the dashboard owner's own withdrawals are not bound by the controls", async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ allowlistEnabled: true }));
    const { createWithdrawal } = await import('@/lib/withdrawals/create-withdrawal');
    const w = await createWithdrawal(
      t.db,
      { ...t.s.owner, tenant: { withdrawalFeeRate: '0.01' } },
      { amount: '1.00', destinationAddress: DEST },
      t.s.actor,
      prepareWithdrawalControls,
    );
    expect(w.status).toBe('PENDING');
  });

  it('a zero cooling-off period makes an address usable at once; a listed address is not added twice', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ allowlistEnabled: true, coolingOffHours: 0 }));
    await addAllowlistAddress(t.db, t.s, { address: DEST });
    expect((await withdraw(t.test, '1.00')).status).toBe(201);
    await expect(addAllowlistAddress(t.db, t.s, { address: DEST.toLowerCase() })).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('step-up', () => {
  it('with 2FA on, changing controls needs a current TOTP code', async () => {
    const t = await setup();
    const secret = generateTotpSecret();
    await t.db
      .update(users)
      .set({ totpSecret: sealSecret(secret) })
      .where(eq(users.id, t.s.user.id));
    await expect(updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '5' }))).rejects.toMatchObject({ code: 'two_factor_required' });
    await expect(
      addAllowlistAddress(t.db, t.s, { address: DEST, totpCode: '000000' === totpCode(secret) ? '111111' : '000000' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await updateWithdrawalControls(t.db, t.s, { ...controls({ dailyLimit: '5' }), totpCode: totpCode(secret) });
    expect((await listWithdrawalControls(t.db, t.s.owner)).controls.dailyLimit).toBe('5.000000000000000000');
  });
});

describe('rolling 24 h limit', () => {
  it('refuses over the limit with the remaining allowance; failed withdrawals and ones older than 24 h do not count', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '10' }));
    expect((await withdraw(t.test, '6.00')).status).toBe(201);
    const over = await withdraw(t.test, '4.50');
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('withdrawal_limit_exceeded');
    expect(over.body.message).toContain('4.00 USD of the 24-hour limit of 10.00 USD');
    expect(over.body.details).toEqual([{ path: 'amount', message: 'remaining 4' }]);
    expect((await withdraw(t.test, '4.00')).status).toBe(201);
    // 25 hours later the first ones no longer count.
    await t.db
      .update(withdrawals)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(withdrawals.tenantId, t.tenant.id));
    expect((await withdraw(t.test, '10.00')).status).toBe(201);
  });

  it('100 concurrent withdrawals of 1.00 under a 7.00 limit: exactly 7 succeed, ledger = balance', async () => {
    const t = await setup('1000');
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '7' }));
    const results = await Promise.all(Array.from({ length: 100 }, () => withdraw(t.test, '1.00')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 400 && r.body.code === 'withdrawal_limit_exceeded')).toBe(true);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('992.93');
    const s = await ledgerAndBalance(t.db, t.tenant.id);
    expect(s.sum).toBe(s.balance);
  });
});

describe('approval', () => {
  it('holds API withdrawals above the threshold; approval releases them, rejection refunds amount + fee once', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ approvalThreshold: '10' }));
    const small = await withdraw(t.test, '10.00');
    expect(small.body.pendingReason).toBeNull();
    const big = await withdraw(t.test, '20.00');
    expect(big.status).toBe(201);
    expect(big.body).toMatchObject({ status: 'PENDING', pendingReason: 'awaiting_approval' });
    const rejectMe = await withdraw(t.test, '30.00');
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('39.40');
    expect((await listWithdrawalControls(t.db, t.s.owner)).awaitingApproval.map((w) => w.id)).toEqual([big.body.id, rejectMe.body.id]);

    const approved = await decideWithdrawalApproval(t.db, t.s, big.body.id, 'approve', {});
    expect(approved).toMatchObject({ status: 'PENDING', pendingReason: null });
    const rejected = await decideWithdrawalApproval(t.db, t.s, rejectMe.body.id, 'reject', {});
    expect(rejected.status).toBe('FAILED');
    await expect(decideWithdrawalApproval(t.db, t.s, rejectMe.body.id, 'reject', {})).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(decideWithdrawalApproval(t.db, t.s, small.body.id, 'approve', {})).rejects.toMatchObject({ code: 'invalid_state' });

    // 30.00 + 0.30 back, once.
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('69.70');
    const s = await ledgerAndBalance(t.db, t.tenant.id);
    expect(s.sum).toBe(s.balance);
    const evs = await t.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), sql`${events.data}->>'id' = ${rejectMe.body.id}`));
    expect(evs.map((e) => e.type).sort()).toEqual(['withdrawal.created', 'withdrawal.failed']);
    const audits = (await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.tenantId, t.tenant.id))).map((a) => a.action);
    expect(audits).toEqual(expect.arrayContaining(['withdrawal.approved', 'withdrawal.rejected']));
  });

  it("another tenant's withdrawal is not found", async () => {
    const a = await setup();
    const b = await setup();
    await updateWithdrawalControls(a.db, a.s, controls({ approvalThreshold: '1' }));
    const held = await withdraw(a.test, '5.00');
    await expect(decideWithdrawalApproval(b.db, b.s, held.body.id, 'approve', {})).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('GET /v1/withdrawals/controls', () => {
  it('shows the controls and the remaining allowance read-only; no API key can change them', async () => {
    const t = await setup();
    expect((await call('GET', '/v1/withdrawals/controls', { key: t.test })).body).toMatchObject({
      allowlistEnabled: false,
      dailyLimit: null,
      dailyRemaining: null,
      approvalThreshold: null,
      allowedAddresses: [],
    });
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '50', allowlistEnabled: true, coolingOffHours: 0 }));
    await addAllowlistAddress(t.db, t.s, { address: DEST, label: 'treasury' });
    await withdraw(t.test, '20.00');
    const res = await call('GET', '/v1/withdrawals/controls', { key: t.test });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      allowlistEnabled: true,
      dailyLimit: '50.00',
      dailyRemaining: '30.00',
      allowedAddresses: [{ address: DEST.toLowerCase(), label: 'treasury', active: true }],
    });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await call(method, '/v1/withdrawals/controls', { key: t.test, body: { dailyLimit: null } })).status).toBe(405);
    }
    // The live mode has its own (default) controls.
    expect((await call('GET', '/v1/withdrawals/controls', { key: t.live })).body.dailyLimit).toBeNull();
  });
});
