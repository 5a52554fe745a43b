import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { screeningDecisions } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listAddresses, resetScreeningAfterEach } from '@/lib/testing/screening';
import { recordDecision } from './record-decision';
import { processMetrics } from '@/lib/metrics/registry';
import { screenAddress } from './screen-address';
import { screenSenders } from './screen-senders';
import { readListFile, SHIPPED_LIST_PATH } from './screening-list';
import { digestOf } from './snapshot';

resetScreeningAfterEach();

// Tornado Cash's router, on the SDN list since 2022-08-08 (ETH); and a TRON address the list carries under USDT.
const TORNADO = '0xd90e2f925DA726b50C4Ed8D0Fb90Ad053324F31b';
const TRON_LISTED = 'TEAqwfMhXLaomXhZ8KeMhx3njGmQEDnsUR';

describe('the shipped SDN snapshot', () => {
  it('is dated, sourced and verified by its digests; EVM entries are 20-byte lower-case, TRON entries 41… hex', () => {
    const list = readListFile(SHIPPED_LIST_PATH);
    expect(list.listDate).toBe('2024-09-27');
    expect(list.source).toContain('0xB10C/ofac-sanctioned-digital-currency-addresses');
    expect(list.version).toMatch(/^2024-09-27\.[0-9a-f]{12}$/);
    const { evm, tron } = list.snapshot.families;
    expect(evm.count).toBeGreaterThan(150);
    expect(evm.entries.every((e) => /^0x[0-9a-f]{40}$/.test(e))).toBe(true);
    expect(tron.entries.every((e) => /^41[0-9a-f]{40}$/.test(e))).toBe(true);
    expect(digestOf(evm.entries)).toBe(evm.sha256);
  });

  it('a file changed by hand does not load', () => {
    const json = JSON.parse(readFileSync(SHIPPED_LIST_PATH, 'utf8'));
    json.families.evm.entries[0] = '0x' + '1'.repeat(40);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sdn-')), 'list.json');
    writeFileSync(file, JSON.stringify(json));
    expect(() => readListFile(file)).toThrow(/sha256 does not match/);
  });
});

describe('screenAddress', () => {
  it('finds an EVM entry in any case and a TRON entry in its T… or 41… form, with the list version', () => {
    const version = readListFile().version;
    expect(screenAddress('evm', TORNADO)).toEqual({ family: 'evm', identity: TORNADO.toLowerCase(), outcome: 'listed', listVersion: version });
    expect(screenAddress('evm', TORNADO.toLowerCase()).outcome).toBe('listed');
    expect(screenAddress('tron', TRON_LISTED).outcome).toBe('listed');
    expect(screenAddress('tron', screenAddress('tron', TRON_LISTED).identity).outcome).toBe('listed');
    expect(screenAddress('evm', '0x' + '2'.repeat(40)).outcome).toBe('clean');
    // The same 20 bytes as a TRON account are another account: not listed there.
    expect(screenAddress('tron', toBase58(TORNADO)).outcome).toBe('clean');
    expect(screenAddress('tron', 'Tnot-an-address').outcome).toBe('invalid');
  });

  it('screens with an imported list at once (the test helper as an import would)', () => {
    const a = '0x' + '3'.repeat(40);
    expect(screenAddress('evm', a).outcome).toBe('clean');
    listAddresses(a);
    expect(screenAddress('evm', a).outcome).toBe('listed');
    expect(screenAddress('evm', TORNADO).outcome).toBe('listed');
  });
});

describe('screenSenders (a watcher pass)', () => {
  it('holds the listed senders, screening each distinct sender once and moving the counters once per pass', async () => {
    const counted = async () => Object.fromEntries((await processMetrics().screenings.get()).values.map((v) => [String(v.labels.outcome), v.value]));
    const clean = '0x' + '4'.repeat(40);
    const before = await counted();
    // As the watcher decodes them: lower-case identities, a sender repeated across payments.
    const held = await screenSenders('evm', [TORNADO.toLowerCase(), clean, TORNADO.toLowerCase(), clean, clean]);
    expect([...held]).toEqual([TORNADO.toLowerCase()]);
    const after = await counted();
    expect((after.listed ?? 0) - (before.listed ?? 0)).toBe(1);
    expect((after.clean ?? 0) - (before.clean ?? 0)).toBe(1);
    const tronIdentity = screenAddress('tron', TRON_LISTED).identity;
    expect([...(await screenSenders('tron', new Set([tronIdentity, '41' + '5'.repeat(40)])))]).toEqual([tronIdentity]);
    expect((await screenSenders('evm', [])).size).toBe(0);
  });
});

describe('screening_decisions', () => {
  it('is append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const t = await createTestTenant();
    await recordDecision(t.db, screenAddress('evm', TORNADO), {
      tenantId: t.tenant.id,
      mode: 'test',
      subject: 'destination',
      path: 'withdrawal',
      outcome: 'refused',
    });
    const [row] = await t.db.select().from(screeningDecisions).where(eq(screeningDecisions.tenantId, t.tenant.id));
    expect(row).toMatchObject({ address: TORNADO.toLowerCase(), outcome: 'refused', family: 'evm' });
    const refusal = async (p: PromiseLike<unknown>) =>
      p.then(
        () => 'not refused',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message}`,
      );
    expect(await refusal(t.db.update(screeningDecisions).set({ outcome: 'released' }).where(eq(screeningDecisions.id, row!.id)))).toMatch(
      /append-only/,
    );
    expect(await refusal(t.db.delete(screeningDecisions).where(eq(screeningDecisions.id, row!.id)))).toMatch(/append-only/);
    expect(await refusal(t.db.execute(sql`truncate screening_decisions`))).toMatch(/append-only/);
  });
});
