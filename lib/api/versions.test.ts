import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_TYPES, RENAMED_EVENT_TYPES, TEST_EVENT_TYPE } from '@/lib/events/types';
import { OPERATIONS } from '@/lib/operations';
import { envelopeBody } from '@/lib/webhooks/attempt-delivery';
import { compileRenderings, eventTypeNames, latestEventType, renderingOf } from './version-renderings';
import { API_VERSIONS, API_VERSION_NAMES, LATEST_API_VERSION, type ApiVersionChange } from './versions';

/*
 * The version table (lib/api/versions.ts) and what it compiles to. Delivery and the API apply the compiled
 * renderings (lib/webhooks/api-versions.test.ts shows them end to end); here, the table's own consistency.
 */
describe('API versions table', () => {
  it('names versions by date, oldest first, the latest last', () => {
    for (const v of API_VERSION_NAMES) expect(v).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect([...API_VERSION_NAMES].sort()).toEqual(API_VERSION_NAMES);
    expect(new Set(API_VERSION_NAMES).size).toBe(API_VERSION_NAMES.length);
    expect(LATEST_API_VERSION).toBe(API_VERSION_NAMES.at(-1));
    for (const v of API_VERSIONS.slice(1)) expect(v.changes.length, v.version).toBeGreaterThan(0);
  });

  it('renames only to names the latest version still has or a later version renamed, and never reuses a name', () => {
    const table: readonly ApiVersionChange[] = API_VERSIONS;
    const all = new Set<string>([...EVENT_TYPES, TEST_EVENT_TYPE]);
    table.forEach((c, i) => {
      for (const [now, before] of Object.entries(c.eventTypes ?? {})) {
        const renamedLater = table.slice(i + 1).some((l) => l.eventTypes && now in l.eventTypes);
        expect(all.has(now) || renamedLater, `${c.version}: ${now}`).toBe(true);
        expect(all.has(before), `${c.version}: ${before} is a current name`).toBe(false);
      }
    });
    expect(RENAMED_EVENT_TYPES).toEqual({
      'mismatched_payment.detected': 'held_payment.detected',
      'mismatched_payment.credited': 'held_payment.credited',
      'mismatched_payment.refunded': 'held_payment.refunded',
      'mismatched_payment.refund_failed': 'held_payment.refund_failed',
    });
    expect(latestEventType('mismatched_payment.detected')).toBe('held_payment.detected');
    expect(eventTypeNames('held_payment.credited')).toEqual(['held_payment.credited', 'mismatched_payment.credited']);
    expect(eventTypeNames('invoice.paid_out')).toEqual(['invoice.paid_out']);
  });

  it('downgrades only responses of operations that exist, and every operation showing event type names in a version that renamed some', () => {
    const ids = new Set(OPERATIONS.map((o) => o.id));
    const table: readonly ApiVersionChange[] = API_VERSIONS;
    for (const c of table) for (const op of Object.keys(c.responses ?? {})) expect(ids.has(op), `${c.version}: ${op}`).toBe(true);
    // Where a response names event types: eventType, eventsSubscribed, or an events timeline.
    const namesEvents = (schema: unknown): boolean => JSON.stringify(schema).match(/"(eventType|eventsSubscribed|events)":/) !== null;
    const showing = OPERATIONS.filter((o) => !o.produces && namesEvents(z.toJSONSchema(o.response, { io: 'output', unrepresentable: 'any' })));
    expect(showing.length).toBeGreaterThan(3);
    for (const c of table.filter((t) => t.eventTypes)) {
      for (const op of showing) expect(c.responses?.[op.id], `${c.version} renames event types but leaves ${op.id} as is`).toBeTruthy();
    }
  });

  it('costs nothing on the latest version: no payload or response changes, only old stored names brought to the latest', () => {
    const latest = renderingOf(LATEST_API_VERSION);
    expect(latest.responses.size).toBe(0);
    expect(latest.eventData.size).toBe(0);
    expect(Object.fromEntries(latest.eventTypes)).toEqual(RENAMED_EVENT_TYPES);
    const d = {
      eventId: 'evt_1',
      eventType: 'invoice.paid_out',
      eventCreatedAt: new Date(0),
      eventDataJson: '{"a": 1}',
      apiVersion: LATEST_API_VERSION,
    };
    expect(envelopeBody(d)).toBe(
      `{"id":"evt_1","type":"invoice.paid_out","apiVersion":"${LATEST_API_VERSION}","createdAt":"1970-01-01T00:00:00.000Z","data":{"a": 1}}`,
    );
    // A replay of an event stored before the rename goes out under the latest name.
    expect(JSON.parse(envelopeBody({ ...d, eventType: 'mismatched_payment.detected' })).type).toBe('held_payment.detected');
    expect(JSON.parse(envelopeBody({ ...d, eventType: 'held_payment.detected', apiVersion: '2026-11-01' })).type).toBe('mismatched_payment.detected');
    // A version no longer served (stored before it was retired) renders as the oldest served, and says so.
    expect(JSON.parse(envelopeBody({ ...d, apiVersion: '2020-01-01' })).apiVersion).toBe(API_VERSION_NAMES[0]);
  });

  it('composes several versions newest first: names, payloads (also of events stored under an old name) and responses', () => {
    const table: ApiVersionChange[] = [
      { version: '2030-01-01', title: 'a', changes: [] },
      {
        version: '2030-02-01',
        title: 'rename',
        changes: ['x'],
        eventTypes: { 'thing.made': 'widget.made' },
        responses: { op: (b) => ({ ...b, steps: [...(b.steps as string[]), 'feb'] }) },
      },
      {
        version: '2030-03-01',
        title: 'reshape',
        changes: ['y'],
        eventTypes: { 'thing.built': 'thing.made' },
        eventData: { 'thing.built': (d) => ({ amount: Number(d.amount) }) },
        responses: { op: (b) => ({ ...b, steps: [...(b.steps as string[]), 'mar'] }) },
      },
    ];
    const r = compileRenderings(table);
    const jan = r.get('2030-01-01')!;
    const feb = r.get('2030-02-01')!;
    const mar = r.get('2030-03-01')!;
    expect(jan.eventTypes.get('thing.built')).toBe('widget.made');
    expect(feb.eventTypes.get('thing.built')).toBe('thing.made');
    expect(mar.eventTypes.get('thing.built')).toBeUndefined();
    expect(mar.eventTypes.get('widget.made')).toBe('thing.built');
    expect(jan.eventTypes.get('widget.made')).toBeUndefined();
    expect(jan.eventData.get('thing.built')!({ amount: '5' })).toEqual({ amount: 5 });
    expect(jan.eventData.get('widget.made')!({ amount: '5' })).toEqual({ amount: 5 });
    expect(mar.eventData.size).toBe(0);
    expect(jan.responses.get('op')!({ steps: [] })).toEqual({ steps: ['mar', 'feb'] });
    expect(feb.responses.get('op')!({ steps: [] })).toEqual({ steps: ['mar'] });
  });
});
