import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { listDeadLetters } from '@/lib/console/list-dead-letters';
import { replayDeadLetter } from '@/lib/console/replay-dead-letter';
import { deliveryReplays } from '@/lib/dashboard/delivery-replays';
import { closeDb, getDb, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { newId } from '@/lib/ids';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { replayEvent } from './replay-event';

/*
 * Issue 45: a delivery replayed from the dashboard stayed in the console's "Not replayed" list, and replaying it there
 * delivered it again. A replay is one action whichever screen starts it: recorded on the dead letter, shown as
 * replayed in both, and the dashboard knows when, to ask before a second one.
 */
let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDb();
});

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
    createdAt: new Date(Date.now() - 60_000),
  });
  return { owner: { tenantId: t.tenant.id, mode: 'test' as const }, endpointId: ep.body.id as string, eventId: ev.id, deliveryId: id };
}

describe('a replay is one action whichever screen starts it', () => {
  it("the dashboard's replay marks the dead letter replayed: the console lists it as replayed and refuses it again", async () => {
    const d = await deadLetter();
    expect(await deliveryReplays(db, d.owner, [d.deliveryId])).toEqual({});
    const { deliveryIds } = await replayEvent(db, d.owner, d.eventId, { endpointId: d.endpointId });
    const [dl] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, d.deliveryId));
    expect(dl!.supersededBy).toBe(deliveryIds[0]);
    const [replay] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryIds[0]!));
    expect(replay!.replayOf).toBe(d.deliveryId);
    const ids = async (state: 'open' | 'replayed') =>
      (await listDeadLetters(db, { tenantId: d.owner.tenantId, state } as never)).map((r: { id: string }) => r.id);
    expect(await ids('open')).not.toContain(d.deliveryId);
    expect(await ids('replayed')).toContain(d.deliveryId);
    await expect(replayDeadLetter(db, { kind: 'support', id: 'usr_x', label: 'support@example.com' }, d.deliveryId)).rejects.toThrow(
      /already replayed/,
    );
    // The dashboard asks "already replayed at …, replay again?" with the replay's time.
    const replays = await deliveryReplays(db, d.owner, [d.deliveryId]);
    expect(replays[d.deliveryId]).toBe(replay!.createdAt.toISOString());
  });

  it("the console's replay shows on the dashboard as replayed", async () => {
    const d = await deadLetter();
    const r = await replayDeadLetter(db, { kind: 'support', id: 'usr_x', label: 'support@example.com' }, d.deliveryId);
    const [replay] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, r.replayDeliveryId));
    expect(replay!.replayOf).toBe(d.deliveryId);
    expect((await deliveryReplays(db, d.owner, [d.deliveryId]))[d.deliveryId]).toBe(replay!.createdAt.toISOString());
  });
});
