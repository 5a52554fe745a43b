import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '@/lib/api/scopes';
import { can } from '@/lib/dashboard/permissions';
import { rowsOf, type Db } from '@/lib/db';
import { ACTORS, MONEY_PATHS, NOT_MONEY, type Actor, type Grant, type MoneyPath } from '@/lib/money-paths';
import { renderMoneyPaths, withRenderedSection } from '@/lib/money-paths-doc';
import { OPERATIONS } from '@/lib/operations';
import { call } from '@/lib/testing/app';
import { createTestKey } from '@/lib/testing/fixtures';
import { RESOURCE_FACTORIES } from '@/lib/testing/resources';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { updateWithdrawalControls } from '@/lib/withdrawal-controls/update-withdrawal-controls';

/*
 * Issue 42 §1: every actor on every money path, generated from the one declaration (lib/money-paths.ts), on one
 * tenant with every control on (allow-list, 24 h limit, approval threshold). A path or an actor without its row, a
 * withdrawals:write operation in no path, or docs/withdrawals.md differing from the declaration fails here.
 * Every actor (dashboard users, the payer, the link holder, the stranger, the job) run on every path with every control
 * tried, on settled money: lib/testing/money-paths/actors.test.ts; this file (keys' scopes only) stays in seconds.
 */
const PATHS = Object.entries(MONEY_PATHS) as [string, MoneyPath][];
const allowed = (g: Grant): g is Extract<Grant, { controls: unknown }> => 'controls' in g;

describe('the declaration', () => {
  it('docs/withdrawals.md renders it (npx tsx scripts/render-money-paths.ts rewrites the section)', () => {
    const doc = readFileSync('docs/withdrawals.md', 'utf8');
    expect(doc).toContain(renderMoneyPaths());
    expect(withRenderedSection(doc)).toBe(doc);
  });

  it('every path has a row for every actor, and every API key scope is an actor', () => {
    for (const [id, p] of PATHS) expect(Object.keys(p.actors).sort(), id).toEqual([...ACTORS].sort());
    for (const s of SCOPES) expect(ACTORS, `scope ${s} has no actor`).toContain(`api_key:${s}`);
  });

  it('every withdrawals:write operation is in a path or declared as moving nothing; every named operation exists', () => {
    const named = new Set(PATHS.flatMap(([, p]) => p.operations));
    const ids = new Set(OPERATIONS.map((o) => o.id));
    for (const op of OPERATIONS.filter((o) => o.scope === 'withdrawals:write')) {
      expect(named.has(op.id) || op.id in NOT_MONEY, `${op.id} (${op.method} ${op.path}) is in no money path: add it to lib/money-paths.ts`).toBe(
        true,
      );
    }
    for (const id of [...named, ...Object.keys(NOT_MONEY)]) expect(ids.has(id), `${id} is no operation`).toBe(true);
  });

  it('a key path that skips the step-up the dashboard asks for is declared so, and never reaches auto-refund', () => {
    for (const [id, p] of PATHS) {
      const ownerStepUp = allowed(p.actors.owner_2fa) && p.actors.owner_2fa.controls.includes('step_up');
      for (const a of ACTORS.filter((x) => x.startsWith('api_key:'))) {
        const g = p.actors[a];
        if (!ownerStepUp || !allowed(g)) continue;
        // Either bound by the allow-list (a key cannot choose where money goes) or the declared exception.
        if (!g.controls.includes('allowlist'))
          expect([id, g.note], `${id}: ${a} skips step-up undeclared`).toEqual(['claim_link_create', expect.stringContaining('never auto-refunded')]);
      }
    }
    for (const a of ACTORS.filter((x) => x !== 'policy_job')) expect(allowed(MONEY_PATHS.auto_refund.actors[a]), a).toBe(false);
  });

  it('what the dashboard allows members and owners agrees with the declaration', () => {
    for (const [id, p] of PATHS) {
      if (!p.entry.startsWith('dashboard')) continue;
      const permission = id === 'held_withdrawal_approval' ? 'settings:manage' : 'withdrawals:create';
      expect(can('member', permission), `${id}: member`).toBe(allowed(p.actors.member));
      expect(can('owner', permission), `${id}: owner`).toBe(allowed(p.actors.owner_no_2fa));
    }
  });
});

describe('API keys of every scope on every path, every control on', () => {
  let t: Awaited<ReturnType<typeof fundedTenant>>;
  let db: Db;
  const keys = {} as Record<Scope, string>;
  const owner = () => ({ tenantId: t.tenant.id, mode: 'test' as const });

  beforeAll(async () => {
    t = await fundedTenant('1000.00');
    db = t.db;
    const actor = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };
    await updateWithdrawalControls(db, { owner: owner(), user: { id: 'usr_test', email: 'owner@example.com' }, actor } as never, {
      allowlistEnabled: true,
      coolingOffHours: 24,
      dailyLimit: '100',
      approvalThreshold: '50',
    });
    for (const s of SCOPES) keys[s] = (await createTestKey(db, { ...owner(), scopes: [s] })).key;
  });

  /** What a refusal must leave unwritten: the tenant's ledger, withdrawals, refunds, requests, links and events. */
  const written = async () =>
    rowsOf<Record<string, string>>(
      await db.execute(sql`select
        (select count(*) from ledger_entries where tenant_id = ${t.tenant.id})::text as ledger,
        (select count(*) from withdrawals where tenant_id = ${t.tenant.id})::text as withdrawals,
        (select count(*) from refund_requests where tenant_id = ${t.tenant.id})::text as requests,
        (select count(*) from refund_claims where tenant_id = ${t.tenant.id})::text as claims,
        (select count(*) from events where tenant_id = ${t.tenant.id})::text as events`),
    )[0];

  const cases = PATHS.flatMap(([id, p]) =>
    p.operations.flatMap((opId) =>
      ACTORS.filter((a): a is Extract<Actor, `api_key:${string}`> => a.startsWith('api_key:')).map(
        (a) => [`${id} · ${opId} · ${a}`, id, opId, a] as const,
      ),
    ),
  );

  it.each(cases)('%s', async (_label, id, opId, actor) => {
    const op = OPERATIONS.find((o) => o.id === opId)!;
    let path = op.path;
    for (const [name, kind] of Object.entries(op.params ?? {})) path = path.replace(`:${name}`, await RESOURCE_FACTORIES[kind]!(db, owner()));
    const grant = MONEY_PATHS[id as keyof typeof MONEY_PATHS].actors[actor];
    const before = await written();
    const res = await call(op.method, path, { key: keys[actor.slice('api_key:'.length) as Scope], body: op.body ? (op.example ?? {}) : undefined });
    if (!allowed(grant)) {
      expect([res.status, res.body.code], res.text).toEqual([403, 'insufficient_scope']);
    } else if (grant.controls.includes('allowlist') && opId === 'createWithdrawal') {
      // The example's destination is on no allow-list: refused before anything is debited.
      expect([res.status, res.body.code], res.text).toEqual([403, 'destination_not_allowed']);
    } else {
      // Allowed, but this tenant has nothing these ids can pay (no settled payment; no exchange here): refused with a
      // 4xx (the exchange: 503 exchange_unavailable), never a 500. Each control through the real entries, with settled
      // money and the exchange simulator: lib/testing/money-paths/actors.test.ts.
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      if (res.body.code !== 'exchange_unavailable') expect(res.status, res.text).toBeLessThan(500);
    }
    expect(await written(), 'a refusal wrote something').toEqual(before);
  });
});
