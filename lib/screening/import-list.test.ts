import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ImportRefused, importScreeningList } from './import-list';
import { MalformedSdnError } from './parse-sdn';
import { screenAddress } from './screen-address';
import { readListFile, setScreeningList, SHIPPED_LIST_PATH } from './screening-list';

const actor = { kind: 'system' as const, id: 'cli', label: 'test import' };
const NEW_EVM = '0x' + 'ab'.repeat(20);

/** A copy of the shipped list to import over, and the shipped entries as an `asset,address` CSV. */
function setup() {
  const target = path.join(mkdtempSync(path.join(tmpdir(), 'sdn-import-')), 'ofac-sdn.json');
  copyFileSync(SHIPPED_LIST_PATH, target);
  const shipped = readListFile(SHIPPED_LIST_PATH);
  const rows = [
    ...shipped.snapshot.families.evm.entries.map((e) => `ETH,${e}`),
    ...shipped.snapshot.families.tron.entries.map((e) => `TRX,${e}`),
    ...shipped.snapshot.families.solana.entries.map((e) => `SOL,${e}`),
  ];
  return { target, shipped, rows };
}

/** A minimal sdn_advanced.xml: one feature type, one address, the date of issue. */
const advancedXml = (addresses: string[], date = { y: 2025, m: 3, d: 4 }) => `<?xml version="1.0"?>
<Sanctions xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ADVANCED_XML">
<DateOfIssue><Year>${date.y}</Year><Month>${date.m}</Month><Day>${date.d}</Day></DateOfIssue>
<ReferenceValueSets><FeatureTypeValues><FeatureType ID="345">Digital Currency Address - ETH</FeatureType><FeatureType ID="1">Nationality</FeatureType></FeatureTypeValues></ReferenceValueSets>
<DistinctParties><DistinctParty><Profile>${addresses
  .map(
    (a, i) =>
      `<Feature ID="${i}" FeatureTypeID="345"><FeatureVersion><VersionDetail DetailTypeID="1432">${a}</VersionDetail></FeatureVersion></Feature>`,
  )
  .join('')}</Profile></DistinctParty></DistinctParties></Sanctions>`;

describe('gateway screening:import', () => {
  it('imports a CSV with a date: entries added and removed counted per family, written verified, audited', async () => {
    const t = await createTestTenant();
    const { target, rows } = setup();
    const csv = ['asset,address', ...rows, `USDT,${NEW_EVM}`].join('\n');
    const report = await importScreeningList(t.db, csv, { date: '2025-01-02', actor, target });
    expect(report.counts.evm).toMatchObject({ added: 1, removed: 0 });
    expect(report.counts.tron).toMatchObject({ added: 0, removed: 0 });
    const written = readListFile(target);
    expect(written.listDate).toBe('2025-01-02');
    expect(written.sets.evm.has(NEW_EVM)).toBe(true);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'screening.list_imported'), eq(auditLog.targetId, report.version)));
    expect(audit?.after).toMatchObject({ listDate: '2025-01-02', counts: { evm: { added: 1 } } });
  });

  it('reads OFAC’s advanced XML and its own date', async () => {
    const t = await createTestTenant();
    const { target, shipped } = setup();
    const all = [...shipped.snapshot.families.evm.entries, NEW_EVM];
    const report = await importScreeningList(t.db, advancedXml(all), { actor, target, force: true });
    expect(report).toMatchObject({ listDate: '2025-03-04', format: 'sdn_advanced.xml' });
    expect(readListFile(target).sets.evm.has(NEW_EVM)).toBe(true);
  });

  it('refuses a malformed file, a file with no date, an older list, and a large drop without --force; the list is unchanged', async () => {
    const t = await createTestTenant();
    const { target, rows } = setup();
    const before = readFileSync(target, 'utf8');
    await expect(importScreeningList(t.db, 'hello,world,again\n', { date: '2025-01-01', actor, target })).rejects.toThrow(MalformedSdnError);
    await expect(importScreeningList(t.db, '<html></html>', { date: '2025-01-01', actor, target })).rejects.toThrow(MalformedSdnError);
    await expect(importScreeningList(t.db, rows.join('\n'), { actor, target })).rejects.toThrow(/--date/);
    await expect(importScreeningList(t.db, rows.join('\n'), { date: '2020-01-01', actor, target })).rejects.toThrow(ImportRefused);
    const half = rows.slice(0, Math.floor(rows.length / 2)).join('\n');
    await expect(importScreeningList(t.db, half, { date: '2025-01-01', actor, target })).rejects.toThrow(/would drop \d+ of \d+ entries/);
    expect(readFileSync(target, 'utf8')).toBe(before);
    const forced = await importScreeningList(t.db, half, { date: '2025-01-01', actor, target, force: true });
    expect(forced.counts.evm!.removed).toBeGreaterThan(50);
  });

  it('screens Solana: the shipped list holds the published SOL entries, and an import adds and counts Solana ones', async () => {
    // OFAC's "Digital Currency Address - SOL" entries as 0xB10C's sanctioned_addresses_SOL.txt lists them (docs/screening.md).
    const published = [
      '42RLPACwZPx3vYYmxSueqsogfynBDqXK298EDsNoyoHi',
      'Fc1EwQUZyTEagaDvA1utHXCcZNyG1x2PLt2DfNu1cJdH',
      'FuCC7GoYwt5TsNTjWL23Xx9UKCvC18chjMEFPL3vJDCC',
    ];
    const shipped = readListFile(SHIPPED_LIST_PATH);
    expect(shipped.snapshot.families.solana.entries).toEqual(published);
    const NEW_SOL = 'BPFLoaderUpgradeab1e11111111111111111111111';
    const t = await createTestTenant();
    const { target, rows } = setup();
    const csv = ['asset,address', ...rows, `SOL,${NEW_SOL}`].join('\n');
    const report = await importScreeningList(t.db, csv, { date: '2025-01-03', actor, target });
    expect(report.counts.solana).toMatchObject({ added: 1, removed: 0 });
    expect(report.counts.evm).toMatchObject({ added: 0, removed: 0 });
    const written = readListFile(target);
    expect(written.snapshot.families.solana.count).toBe(4);
    setScreeningList(written);
    try {
      for (const a of [...published, NEW_SOL]) expect(screenAddress('solana', a)).toMatchObject({ outcome: 'listed', listVersion: written.version });
      expect(screenAddress('solana', '11111111111111111111111111111112').outcome).toBe('clean');
    } finally {
      setScreeningList(null);
    }
  });
});
