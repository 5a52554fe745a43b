import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, invoices, settlements, tenants, webhookDeliveries, withdrawals } from '@/db/schema';
import { listAudit } from '@/lib/audit/list-audit';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { closeDb, getDb, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { newId } from '@/lib/ids';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { consoleAccess } from './access';
import { getStaffSession } from './get-staff-session';
import { listStuckWork } from './list-stuck-work';
import { recoverEndpoint } from './recover-endpoint';
import { replayDeadLetter } from './replay-dead-letter';
import { retryInvoiceSettlement } from './retry-invoice-settlement';
import { retryWithdrawalSend } from './retry-withdrawal-send';
import { searchConsole } from './search';

// The session next-auth would read from the cookie: the test sets whose it is.
const session = vi.hoisted(() => ({ sid: null as string | null }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const actions = await import('@/components/console/actions');

const PASSWORD = 'a-long-enough-password';
let db: Db;
let n = 0;
const email = (tag: string) => `${tag}-${process.pid}-${Date.now()}-${++n}@example.com`;

async function signedIn(role: 'support' | 'owner', tenantId?: string) {
  const u = await createUser(db, { email: email(role), password: PASSWORD, role, tenantId });
  const out = await verifyCredentials(db, { email: u.email, password: PASSWORD }, { ip: `10.9.${n}.${n % 250}` });
  if (!out.ok) throw new Error(`sign-in refused: ${out.reason}`);
  return { user: u, sessionId: out.sessionId, actor: { kind: 'support' as const, id: u.id, label: u.email } };
}

/** A tenant with an endpoint and one dead-lettered delivery of a real event. */
async function deadLetter() {
  const t = await createTestTenant();
  const ep = await call('POST', '/v1/webhooks/endpoints', { key: t.test, body: { url: 'https://example.com/hook', eventsSubscribed: ['*'] } });
  const ev = await emitEvent(db, { tenantId: t.tenant.id, mode: 'test', type: 'invoice.created', subjectId: newId('invoice'), data: { test: true } });
  const id = newId('webhookDelivery');
  await db.insert(webhookDeliveries).values({
    id,
    tenantId: t.tenant.id,
    mode: 'test',
    eventId: ev.id,
    eventType: ev.type,
    endpointId: ep.body.id,
    status: 'DEAD_LETTER',
    attemptCount: 8,
    lastError: 'HTTP 500',
  });
  return { t, endpointId: ep.body.id as string, eventId: ev.id, deliveryId: id };
}

const auditRowsFor = (targetId: string) => db.select().from(auditLog).where(eq(auditLog.targetId, targetId));

beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
});

describe('console authorization', () => {
  it('lets support staff in, shows merchants a 403 and sends everyone else to sign-in', () => {
    expect(consoleAccess({ role: 'support' })).toBe('ok');
    expect(consoleAccess({ role: 'owner' })).toBe('forbidden');
    expect(consoleAccess({ role: 'member' })).toBe('forbidden');
    expect(consoleAccess(null)).toBe('sign-in');
  });

  it('support users (no tenant) can sign in; their session is a staff session', async () => {
    const s = await signedIn('support');
    const staff = await getStaffSession(db, s.sessionId);
    expect(staff?.user).toMatchObject({ role: 'support', tenantId: null });
  });

  it('every console action checks the role itself: merchants and signed-out callers change nothing', async () => {
    const d = await deadLetter();
    const owner = await signedIn('owner', d.t.tenant.id);

    session.sid = null;
    const anon = await actions.replayDeadLettersAction({ deliveryIds: [d.deliveryId] });
    expect(anon).toMatchObject({ ok: false, error: { code: 'invalid_api_key' } });

    session.sid = owner.sessionId;
    for (const res of [
      await actions.replayDeadLettersAction({ deliveryIds: [d.deliveryId] }),
      await actions.setFeeRatesAction(d.t.tenant.id, { invoiceFeeRate: '0' }),
      await actions.setTenantStatusAction(d.t.tenant.id, { status: 'suspended', reason: 'owner tries' }),
      await actions.recoverEndpointAction({ endpointId: d.endpointId, since: new Date(0).toISOString() }),
      await actions.retryWithdrawalAction('wd_x'),
      await actions.deliveryOutcomesAction([d.deliveryId]),
    ]) {
      expect(res).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'The support console is for support staff only.' } });
    }
    const [t] = await db.select().from(tenants).where(eq(tenants.id, d.t.tenant.id));
    expect(t).toMatchObject({ invoiceFeeRate: '0.010000', status: 'active' });
    const [dl] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.deliveryId));
    expect(dl!.supersededBy).toBeNull();
    expect(await auditRowsFor(d.t.tenant.id)).toEqual([]);

    const support = await signedIn('support');
    session.sid = support.sessionId;
    const ok = await actions.replayDeadLettersAction({ deliveryIds: [d.deliveryId] });
    expect(ok).toMatchObject({ ok: true, data: [{ deliveryId: d.deliveryId, ok: true }] });
    session.sid = null;
  });
});

describe('console actions write audit rows', () => {
  it('replays a dead letter once, marks it replaced and records who did it', async () => {
    const d = await deadLetter();
    const s = await signedIn('support');
    const r = await replayDeadLetter(db, s.actor, d.deliveryId);
    const [replay] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, r.replayDeliveryId));
    expect(replay).toMatchObject({ status: 'PENDING', endpointId: d.endpointId, eventId: d.eventId, replayOf: d.deliveryId });
    const [orig] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.deliveryId));
    expect(orig!.supersededBy).toBe(r.replayDeliveryId);

    const [row] = await auditRowsFor(d.deliveryId);
    expect(row).toMatchObject({
      actorKind: 'support',
      actorId: s.user.id,
      actorLabel: s.user.email,
      action: 'webhook.dead_letter_replayed',
      targetType: 'webhook_delivery',
      tenantId: d.t.tenant.id,
      mode: 'test',
      before: { status: 'DEAD_LETTER', supersededBy: null },
      after: { replayDeliveryId: r.replayDeliveryId },
    });
    // The tenant sees it in its own log too.
    expect((await listAudit(db, { tenantId: d.t.tenant.id })).rows.map((x) => x.id)).toContain(row!.id);

    await expect(replayDeadLetter(db, s.actor, d.deliveryId)).rejects.toThrow(/already replayed/);
    expect(await auditRowsFor(d.deliveryId)).toHaveLength(1);
  });

  it('a selection reports each outcome; refusals do not stop the rest', async () => {
    const a = await deadLetter();
    const b = await deadLetter();
    const s = await signedIn('support');
    session.sid = s.sessionId;
    const res = await actions.replayDeadLettersAction({ deliveryIds: [a.deliveryId, 'whd_unknown', b.deliveryId] });
    session.sid = null;
    if (!res.ok) throw new Error(res.error.message);
    expect(res.data.map((o) => [o.deliveryId, o.ok])).toEqual([
      [a.deliveryId, true],
      ['whd_unknown', false],
      [b.deliveryId, true],
    ]);
    expect(res.data[1]).toMatchObject({ error: 'Delivery not found.' });
  });

  it('recovers an endpoint since a time, once, and records it', async () => {
    const d = await deadLetter();
    const s = await signedIn('support');
    const r = await recoverEndpoint(db, s.actor, d.endpointId, new Date(Date.now() - 3_600_000));
    expect(r.deliveryIds).toHaveLength(1);
    expect((await recoverEndpoint(db, s.actor, d.endpointId, new Date(Date.now() - 3_600_000))).deliveryIds).toEqual([]);
    const rows = await auditRowsFor(d.endpointId);
    expect(rows.map((x) => x.action)).toEqual(['webhook.endpoint_recovered', 'webhook.endpoint_recovered']);
    await expect(recoverEndpoint(db, s.actor, d.endpointId, new Date(Date.now() + 60_000))).rejects.toThrow(/future/);
  });

  it('changes fee rates and suspends / reactivates a tenant, with before and after; bad input is a clear message', async () => {
    const t = await createTestTenant();
    const s = await signedIn('support');
    session.sid = s.sessionId;
    const bad = await actions.setFeeRatesAction(t.tenant.id, { invoiceFeeRate: '1.5' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(!bad.ok && bad.error.message).toMatch(/invoiceFeeRate/);
    expect(await actions.setFeeRatesAction(t.tenant.id, { invoiceFeeRate: '0.005' })).toMatchObject({
      ok: true,
      data: { invoiceFeeRate: '0.005000' },
    });
    expect(await actions.setTenantStatusAction(t.tenant.id, { status: 'suspended', reason: 'chargeback review' })).toMatchObject({ ok: true });
    // A suspended tenant's keys stop working at once.
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).status).toBe(403);
    expect(await actions.setTenantStatusAction(t.tenant.id, { status: 'suspended', reason: 'again' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_state' },
    });
    expect(await actions.setTenantStatusAction(t.tenant.id, { status: 'active', reason: 'review done' })).toMatchObject({ ok: true });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).status).toBe(200);
    session.sid = null;

    const rows = (await listAudit(db, { tenantId: t.tenant.id })).rows.reverse();
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      [
        'tenant.fee_rates_changed',
        { invoiceFeeRate: '0.010000', withdrawalFeeRate: '0.010000' },
        { invoiceFeeRate: '0.005000', withdrawalFeeRate: '0.010000' },
      ],
      ['tenant.suspended', { status: 'active' }, { status: 'suspended', reason: 'chargeback review' }],
      ['tenant.reactivated', { status: 'suspended' }, { status: 'active', reason: 'review done' }],
    ]);
  });

  it('retries a failed settlement and a waiting withdrawal through the lib functions, and lists them as stuck first', async () => {
    const t = await createTestTenant();
    const s = await signedIn('support');
    const invoiceId = newId('invoice');
    await db.insert(invoices).values({
      chain: 'BSC',
      token: 'USDT',
      id: invoiceId,
      tenantId: t.tenant.id,
      mode: 'test',
      status: 'FAILED',
      chainId: 1_337_999,
      depositAddress: `0x${randomBytes(20).toString('hex')}`,
      addressIndex: 2_000_000_000 + Math.floor(Math.random() * 1e9),
      amountExpected: '10',
      amountReceived: '10',
      confirmationsRequired: 2,
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const settlementId = newId('settlement');
    await db.insert(settlements).values({
      token: 'USDT',
      id: settlementId,
      invoiceId,
      tenantId: t.tenant.id,
      mode: 'test',
      chainId: 1_337_999,
      kind: 'invoice',
      status: 'failed',
      amount: '10',
      feeAmount: '0.1',
      netAmount: '9.9',
      attempts: 5,
      lastError: 'gas top-up reverted',
    });
    const withdrawalId = newId('withdrawal');
    await db.insert(withdrawals).values({
      chain: 'BSC',
      token: 'USDT',
      id: withdrawalId,
      tenantId: t.tenant.id,
      mode: 'test',
      amount: '5',
      feeAmount: '0.05',
      netAmount: '5',
      destinationAddress: `0x${randomBytes(20).toString('hex')}`,
      chainId: 1_337_999,
      status: 'PENDING',
      pendingReason: 'Hot wallet lacks BNB for gas; retrying.',
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });

    const stuck = await listStuckWork(db);
    expect(stuck.invoices.find((i) => i.id === invoiceId)).toMatchObject({ failedSettlementId: settlementId, lastError: 'gas top-up reverted' });
    expect(stuck.withdrawals.find((w) => w.id === withdrawalId)).toMatchObject({ pendingReason: expect.stringContaining('BNB') });

    expect(await retryInvoiceSettlement(db, s.actor, invoiceId)).toMatchObject({ settlementId, invoiceStatus: 'PROCESSING_PAYOUT' });
    const [st] = await db.select().from(settlements).where(eq(settlements.id, settlementId));
    expect(st).toMatchObject({ status: 'pending', attempts: 0 });
    await expect(retryInvoiceSettlement(db, s.actor, invoiceId)).rejects.toThrow(/no failed settlement/);

    expect(await retryWithdrawalSend(db, s.actor, withdrawalId)).toMatchObject({ action: 'queued', status: 'PENDING' });
    const [w] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
    expect(w!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());

    // Nothing to retry: a clear refusal, no audit row.
    await db.update(withdrawals).set({ status: 'COMPLETED' }).where(eq(withdrawals.id, withdrawalId));
    await expect(retryWithdrawalSend(db, s.actor, withdrawalId)).rejects.toThrow(/COMPLETED: there is nothing to retry/);
    await expect(retryWithdrawalSend(db, s.actor, 'wd_unknown')).rejects.toThrow(/Withdrawal not found/);

    const rows = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, t.tenant.id), eq(auditLog.actorId, s.user.id)));
    expect(rows.map((r) => r.action).sort()).toEqual(['invoice.settlement_retried', 'withdrawal.send_retried']);
    expect(rows.find((r) => r.action === 'invoice.settlement_retried')).toMatchObject({
      before: { invoiceStatus: 'FAILED', settlementStatus: 'failed' },
      after: { invoiceStatus: 'PROCESSING_PAYOUT', settlementStatus: 'pending' },
    });
  });
});

describe('console search', () => {
  it('finds tenants by name and records by id, across tenants', async () => {
    const d = await deadLetter();
    const byName = await searchConsole(db, d.t.tenant.name);
    expect(byName).toContainEqual(expect.objectContaining({ kind: 'tenant', id: d.t.tenant.id }));
    expect(await searchConsole(db, d.eventId)).toEqual([expect.objectContaining({ kind: 'event', tenantId: d.t.tenant.id })]);
    expect(await searchConsole(db, d.deliveryId)).toEqual([expect.objectContaining({ kind: 'delivery', id: d.deliveryId })]);
    expect(await searchConsole(db, 'x')).toEqual([]);
  });

  it('counts a delivery\'s attempts in words: "1 attempt", "8 attempts" (issue 45: "1 attempts")', async () => {
    const d = await deadLetter();
    expect((await searchConsole(db, d.deliveryId))[0]!.summary).toMatch(/ · 8 attempts$/);
    await db.update(webhookDeliveries).set({ attemptCount: 1 }).where(eq(webhookDeliveries.id, d.deliveryId));
    expect((await searchConsole(db, d.deliveryId))[0]!.summary).toMatch(/ · 1 attempt$/);
  });

  it("shows amounts in token units with the record's own token, not the 18-decimal column value", async () => {
    const t = await createTestTenant();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '15.50' } });
    expect(inv.status, inv.text).toBe(201);
    const [hit] = await searchConsole(db, inv.body.id);
    expect(hit!.summary).toBe(`PENDING · 15.50 ${inv.body.token} · invoice id`);
  });
});

describe('dead letter filters', () => {
  it('treats empty form fields as no filter and junk as no filter, never as 0 hours', async () => {
    const { DeadLetterFilter, listDeadLetters } = await import('./list-dead-letters');
    const d = await deadLetter();
    const f = DeadLetterFilter.parse({ tenantId: d.t.tenant.id, endpointId: '', eventType: '', minAgeHours: '', maxAgeHours: '', state: 'open' });
    expect(f).toMatchObject({ tenantId: d.t.tenant.id, endpointId: undefined, minAgeHours: undefined, maxAgeHours: undefined });
    expect((await listDeadLetters(db, f)).map((r) => r.id)).toEqual([d.deliveryId]);
    expect(DeadLetterFilter.parse({ maxAgeHours: 'soon', state: 'bogus' })).toMatchObject({ maxAgeHours: undefined, state: 'open' });
    expect(await listDeadLetters(db, DeadLetterFilter.parse({ tenantId: d.t.tenant.id, minAgeHours: '1' }))).toEqual([]);
  });
});
