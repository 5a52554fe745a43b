import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, exchangeOrders, type ExchangeOrder } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import { newId } from '@/lib/ids';
import { log } from '@/lib/log';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createRecordedOrder } from './create-recorded-order';
import { requireExchange } from './get-exchange';
import { listOrdersNeedingAttention } from './list-orders-needing-attention';
import { recordOrderState } from './record-order-state';
import { resolveExchangeEmergency } from './resolve-emergency';
import type { CreateParams } from './types';
import { RESOURCE_FACTORIES } from '@/lib/testing/resources';

// The simulator runs without a chain here: USDTBSC deposits are then made through its control endpoint too.
// The file creates more orders (50 weight each) than the real per-minute limit allows, so the limit is raised.
let ex: Awaited<ReturnType<typeof startTestExchange>>;
beforeAll(async () => {
  ex = await startTestExchange(undefined, { limit: { limit: 100_000 }, config: { weightLimit: 100_000 } });
});
afterAll(async () => {
  await ex?.stop();
});

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const EVM_ADDRESS = '0x1111111111111111111111111111111111111111';
const actor: AuditActor = { kind: 'user', id: 'usr_test', label: 'owner@example.com' };
const PAYIN: CreateParams = { type: 'fixed', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '50', toAddress: EVM_ADDRESS };
const WITHDRAWAL: CreateParams = { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: '50', toAddress: BTC_ADDRESS };

type Tenant = Awaited<ReturnType<typeof createTestTenant>>;
const owner = (t: Tenant, mode: 'test' | 'live' = 'test') => ({ tenantId: t.tenant.id, mode });

/** A real order at the simulator, recorded and open as the gateway keeps it. */
async function openOrder(
  t: Tenant,
  purpose: ExchangeOrder['purpose'],
  params: CreateParams,
  links: { withdrawalId?: string; invoiceId?: string } = {},
) {
  const { row } = await createRecordedOrder(t.db, requireExchange(t.db, 'test', null), owner(t), purpose, params);
  const [open] = await t.db
    .update(exchangeOrders)
    .set({ state: 'open', ...links })
    .where(eq(exchangeOrders.id, row.id))
    .returning();
  return open!;
}

/** What the tracker would do: ask the exchange and record it. */
async function refresh(t: Tenant, id: string) {
  const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.id, id));
  const order = await requireExchange(t.db, 'test', null).order(row!.exchangeId!, row!.token!);
  await recordOrderState(t.db, row!, order);
  const [after] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.id, id));
  return after!;
}

/** A short deposit at the simulator turns the order EMERGENCY (reason LESS); recorded like the tracker does. */
async function intoEmergency(t: Tenant, row: ExchangeOrder) {
  const res = await fetch(`${ex.sim.url}/control/orders/${row.exchangeId}/deposit`, {
    method: 'POST',
    body: JSON.stringify({ amount: String(Number(row.fromAmount) / 2) }),
  });
  expect(res.status).toBe(200);
  expect((await res.json()).status).toBe('EMERGENCY');
  const after = await refresh(t, row.id);
  expect(after.status).toBe('EMERGENCY');
  return after;
}

/** A recorded row without a real order behind it (other modes, other states). */
async function fakeRow(t: Tenant, mode: 'test' | 'live', status: ExchangeOrder['status'], state: ExchangeOrder['state'] = 'open') {
  const [row] = await t.db
    .insert(exchangeOrders)
    .values({
      id: newId('exchangeOrder'),
      tenantId: t.tenant.id,
      mode,
      purpose: 'withdrawal',
      state,
      status,
      type: 'fixed',
      fromCcy: 'USDTBSC',
      toCcy: 'BTC',
      direction: 'from',
      requestedAmount: '10',
      toAddress: BTC_ADDRESS,
      exchangeId: `F${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
      token: 'secret-token',
      lastOrder: status === 'EMERGENCY' ? { emergency: { status: ['LESS'], choice: 'NONE', repeat: '0' } } : {},
    })
    .returning();
  return row!;
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const exchangeStatus = async (exchangeId: string) =>
  (await (await fetch(`${ex.sim.url}/control/orders/${exchangeId}`)).json()) as {
    status: string;
    emergency: { choice: string };
    back: { address: string };
  };

describe('exchange orders that need the merchant', () => {
  it("lists only the tenant's own EXPIRED/EMERGENCY open orders of the mode, newest first, with reasons and advice", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const expired = await fakeRow(a, 'test', 'EXPIRED');
    // Orders point at real rows (foreign keys): an invoice and a withdrawal of the tenant.
    const invoiceId = await RESOURCE_FACTORIES.invoice!(a.db, owner(a));
    const withdrawalId = await RESOURCE_FACTORIES.withdrawal!(a.db, owner(a));
    const payin = await intoEmergency(a, await openOrder(a, 'payin', PAYIN, { invoiceId }));
    const withdrawal = await intoEmergency(a, await openOrder(a, 'withdrawal', WITHDRAWAL, { withdrawalId }));
    await openOrder(a, 'payin', PAYIN); // NEW: fine, not listed
    await fakeRow(a, 'test', 'EMERGENCY', 'final'); // no longer tracked
    await fakeRow(a, 'live', 'EMERGENCY'); // the other mode
    await fakeRow(b, 'test', 'EMERGENCY'); // another tenant
    await intoEmergency(b, await openOrder(b, 'payin', PAYIN));

    const list = await listOrdersNeedingAttention(a.db, owner(a));
    expect(list.map((o) => o.id)).toEqual([withdrawal.id, payin.id, expired.id]);
    expect(list[0]).toMatchObject({
      purpose: 'withdrawal',
      status: 'EMERGENCY',
      fromCcy: 'USDTBSC',
      toCcy: 'BTC',
      withdrawalId,
      invoiceId: null,
      reasons: ['LESS'],
      choice: 'NONE',
      canResolve: true,
      exchangeId: withdrawal.exchangeId,
    });
    expect(list[0]!.advice).toMatch(/less than the agreed amount/);
    expect(list[0]!.advice).toMatch(/not back to the balance/);
    expect(list[1]).toMatchObject({
      purpose: 'payin',
      fromCcy: 'BTC',
      toCcy: 'USDTBSC',
      invoiceId,
      reasons: ['LESS'],
      canResolve: true,
    });
    expect(Number(list[1]!.fromAmount)).toBeGreaterThan(0);
    expect(list[2]).toMatchObject({ status: 'EXPIRED', reasons: [], choice: 'NONE', canResolve: false });
    expect(list[2]!.advice).toMatch(/No deposit arrived in time/);
    expect(JSON.stringify(list)).not.toContain(withdrawal.token!);

    expect(await listOrdersNeedingAttention(a.db, owner(a, 'live'))).toHaveLength(1);
    expect((await listOrdersNeedingAttention(b.db, owner(b))).map((o) => o.id)).not.toContain(payin.id);
  });

  it('EXCHANGE continues the order at the exchange, records the new state at once and writes an audit row', async () => {
    const t = await createTestTenant();
    const row = await intoEmergency(t, await openOrder(t, 'payin', PAYIN));
    const logged: unknown[] = [];
    const spies = (['debug', 'info', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(log, level).mockImplementation((...args) => void logged.push(args)),
    );
    let result;
    try {
      result = await resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'EXCHANGE' }, actor);
    } finally {
      spies.forEach((s) => s.mockRestore());
    }
    expect(result).toMatchObject({ id: row.id, choice: 'EXCHANGE', refundAddress: null });
    expect(result.status).not.toBe('EMERGENCY');
    const sim = await exchangeStatus(row.exchangeId!);
    expect(sim.emergency.choice).toBe('EXCHANGE');
    expect(['EXCHANGE', 'WITHDRAW', 'DONE']).toContain(sim.status);

    const [after] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.id, row.id));
    expect(after!.status).toBe(result.status);
    expect(after!.status).not.toBe('EMERGENCY');
    expect(await listOrdersNeedingAttention(t.db, owner(t))).toEqual([]);

    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, t.tenant.id), eq(auditLog.targetId, row.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'exchange_order.emergency_resolved',
      actorKind: 'user',
      actorId: 'usr_test',
      targetType: 'exchange_order',
      mode: 'test',
    });
    expect(audit[0]!.before).toMatchObject({ status: 'EMERGENCY', choice: 'NONE', reasons: ['LESS'] });
    expect(audit[0]!.after).toMatchObject({ choice: 'EXCHANGE', exchangeId: row.exchangeId, purpose: 'payin' });
    expect(JSON.stringify(audit)).not.toContain(row.token!);
    expect(JSON.stringify(logged)).toContain('exchange emergency decided');
    expect(JSON.stringify(logged)).not.toContain(row.token!);

    // Deciding twice is refused, by the gateway, before the exchange is asked again.
    expect((await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'EXCHANGE' }, actor))).status).toBe(409);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, row.id))).toHaveLength(1);
  });

  it('REFUND needs a refund address, an EVM one for USDTBSC orders, then refunds to it', async () => {
    const t = await createTestTenant();
    const row = await intoEmergency(t, await openOrder(t, 'withdrawal', WITHDRAWAL));
    const missing = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND' }, actor));
    expect([missing.status, missing.code, missing.details?.[0]?.path]).toEqual([400, 'validation_failed', 'refundAddress']);
    const blank = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: '   ' }, actor));
    expect([blank.status, blank.code]).toEqual([400, 'validation_failed']);
    for (const bad of [
      '0x1234',
      BTC_ADDRESS,
      '0x52908400098527886E0F7030069857D2E4169EE8' /* bad checksum */,
      '0x0000000000000000000000000000000000000000',
    ]) {
      const err = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: bad }, actor));
      expect([err.status, err.code, err.details?.[0]?.path]).toEqual([400, 'invalid_address', 'refundAddress']);
    }
    const unknownField = await apiError(
      resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: EVM_ADDRESS, x: 1 } as never, actor),
    );
    expect(unknownField.code).toBe('validation_failed');
    const wrongChoice = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'KEEP' } as never, actor));
    expect(wrongChoice.code).toBe('validation_failed');
    expect((await exchangeStatus(row.exchangeId!)).status).toBe('EMERGENCY'); // nothing was sent

    const result = await resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: EVM_ADDRESS }, actor);
    expect(result).toMatchObject({ choice: 'REFUND', refundAddress: EVM_ADDRESS, status: 'DONE' });
    const sim = await exchangeStatus(row.exchangeId!);
    expect([sim.status, sim.emergency.choice, sim.back.address]).toEqual(['DONE', 'REFUND', EVM_ADDRESS]);
    const [after] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.id, row.id));
    expect([after!.status, after!.state]).toEqual(['DONE', 'final']);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, row.id));
    expect(audit!.after).toMatchObject({ choice: 'REFUND', refundAddress: EVM_ADDRESS, status: 'DONE' });
    expect(
      (await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: EVM_ADDRESS }, actor))).status,
    ).toBe(409);
  });

  it('a refund of another coin takes any address without spaces, the exchange checks it', async () => {
    const t = await createTestTenant();
    const row = await intoEmergency(t, await openOrder(t, 'payin', PAYIN));
    const spaced = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: 'bc1q ar0s' }, actor));
    expect([spaced.status, spaced.code]).toEqual([400, 'invalid_address']);
    const long = await apiError(
      resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: 'b'.repeat(129) }, actor),
    );
    expect(long.status).toBe(400);
    const result = await resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: BTC_ADDRESS }, actor);
    expect(result).toMatchObject({ choice: 'REFUND', status: 'DONE' });
    expect((await exchangeStatus(row.exchangeId!)).back.address).toBe(BTC_ADDRESS);
  });

  it("another tenant's or the other mode's order is a 404; an order not in EMERGENCY is a 409", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const theirs = await intoEmergency(b, await openOrder(b, 'payin', PAYIN));
    const notFound = await apiError(resolveExchangeEmergency(a.db, owner(a), { orderId: theirs.id, choice: 'EXCHANGE' }, actor));
    expect([notFound.status, notFound.code]).toEqual([404, 'not_found']);
    expect((await apiError(resolveExchangeEmergency(a.db, owner(a), { orderId: 'exo_nope', choice: 'EXCHANGE' }, actor))).status).toBe(404);
    const live = await fakeRow(a, 'live', 'EMERGENCY');
    expect((await apiError(resolveExchangeEmergency(a.db, owner(a), { orderId: live.id, choice: 'EXCHANGE' }, actor))).status).toBe(404);
    expect((await exchangeStatus(theirs.exchangeId!)).status).toBe('EMERGENCY');
    expect(await a.db.select().from(auditLog).where(eq(auditLog.targetId, theirs.id))).toHaveLength(0);

    const fresh = await openOrder(a, 'payin', PAYIN);
    const notEmergency = await apiError(resolveExchangeEmergency(a.db, owner(a), { orderId: fresh.id, choice: 'EXCHANGE' }, actor));
    expect([notEmergency.status, notEmergency.code]).toEqual([409, 'invalid_state']);
    const expired = await fakeRow(a, 'test', 'EXPIRED');
    expect((await apiError(resolveExchangeEmergency(a.db, owner(a), { orderId: expired.id, choice: 'EXCHANGE' }, actor))).status).toBe(409);
  });

  it('when the exchange refuses the decision the order can be decided again', async () => {
    const t = await createTestTenant();
    // Recorded as EMERGENCY while the exchange still has it NEW: the exchange answers "not in EMERGENCY".
    const row = await openOrder(t, 'payin', PAYIN);
    await t.db
      .update(exchangeOrders)
      .set({ status: 'EMERGENCY', lastOrder: { ...row.lastOrder, emergency: { status: ['LESS'], choice: 'NONE', repeat: '0' } } })
      .where(eq(exchangeOrders.id, row.id));
    const refused = await apiError(resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'EXCHANGE' }, actor));
    expect([refused.status, refused.code]).toEqual([400, 'exchange_rejected']);
    const [list] = await listOrdersNeedingAttention(t.db, owner(t));
    expect(list).toMatchObject({ id: row.id, choice: 'NONE', canResolve: true });
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, row.id))).toHaveLength(0);
  });

  it('two decisions at once: one reaches the exchange, the other gets 409', async () => {
    const t = await createTestTenant();
    const row = await intoEmergency(t, await openOrder(t, 'payin', PAYIN));
    const outcomes = await Promise.allSettled([
      resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'EXCHANGE' }, actor),
      resolveExchangeEmergency(t.db, owner(t), { orderId: row.id, choice: 'REFUND', refundAddress: BTC_ADDRESS }, actor),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as ApiError).status).toBe(409);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, row.id))).toHaveLength(1);
  });
});
