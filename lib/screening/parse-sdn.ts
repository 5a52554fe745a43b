import type { SdnEntry } from './snapshot';

/** A file that is not an SDN export this reads: the import refuses it and changes nothing. */
export class MalformedSdnError extends Error {
  name = 'MalformedSdnError';
}

export interface ParsedSdn {
  /** YYYY-MM-DD: the publication date the file states, else the one given (`--date`), else none. */
  listDate: string | null;
  entries: SdnEntry[];
  format: 'sdn_advanced.xml' | 'sdn.xml' | 'sdn.csv' | 'asset,address csv';
}

const PREFIX = 'Digital Currency Address - ';
const pad = (n: string) => n.padStart(2, '0');
const unxml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/**
 * OFAC's advanced XML (sdn_advanced.xml): feature types named "Digital Currency Address - <ASSET>", each address a
 * VersionDetail of a Feature with that type; the date is the root's DateOfIssue. Read with patterns, not a DOM: the
 * file is ~100 MB and only these elements matter.
 */
function parseAdvancedXml(text: string): ParsedSdn {
  const types = new Map<string, string>();
  for (const m of text.matchAll(/<FeatureType\b[^>]*\bID="(\d+)"[^>]*>([^<]*)<\/FeatureType>/g)) {
    const name = unxml(m[2]!);
    if (name.startsWith(PREFIX)) types.set(m[1]!, name.slice(PREFIX.length).trim());
  }
  const entries: SdnEntry[] = [];
  for (const m of text.matchAll(/<Feature\b[^>]*\bFeatureTypeID="(\d+)"[^>]*>([\s\S]*?)<\/Feature>/g)) {
    const asset = types.get(m[1]!);
    if (!asset) continue;
    for (const d of m[2]!.matchAll(/<VersionDetail\b[^>]*>([^<]+)<\/VersionDetail>/g)) entries.push({ asset, address: unxml(d[1]!) });
  }
  const date = /<DateOfIssue>\s*<Year>(\d{4})<\/Year>\s*<Month>(\d{1,2})<\/Month>\s*<Day>(\d{1,2})<\/Day>/.exec(text);
  return { format: 'sdn_advanced.xml', listDate: date ? `${date[1]}-${pad(date[2]!)}-${pad(date[3]!)}` : null, entries };
}

/** OFAC's classic XML (sdn.xml): `<id><idType>Digital Currency Address - ETH</idType><idNumber>0x…</idNumber></id>`, Publish_Date MM/DD/YYYY. */
function parseClassicXml(text: string): ParsedSdn {
  const entries: SdnEntry[] = [];
  for (const m of text.matchAll(/<idType>\s*Digital Currency Address - ([^<]+?)\s*<\/idType>\s*<idNumber>([^<]+)<\/idNumber>/g)) {
    entries.push({ asset: unxml(m[1]!), address: unxml(m[2]!) });
  }
  const date = /<Publish_Date>(\d{1,2})\/(\d{1,2})\/(\d{4})<\/Publish_Date>/.exec(text);
  return { format: 'sdn.xml', listDate: date ? `${date[3]}-${pad(date[1]!)}-${pad(date[2]!)}` : null, entries };
}

/**
 * CSV: OFAC's sdn.csv, whose remarks column carries "Digital Currency Address - ETH 0x…;", or a plain two-column
 * `asset,address` file (one line per address, as the public per-asset lists are). Neither states a date.
 */
function parseCsv(text: string): ParsedSdn {
  if (text.includes(PREFIX)) {
    const entries = [...text.matchAll(/Digital Currency Address - ([A-Za-z0-9]+)\s+([A-Za-z0-9]+)/g)].map((m) => ({ asset: m[1]!, address: m[2]! }));
    return { format: 'sdn.csv', listDate: null, entries };
  }
  const entries: SdnEntry[] = [];
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    const cells = line.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
    if (i === 0 && /^asset$/i.test(cells[0] ?? '')) continue;
    if (cells.length !== 2 || !/^[A-Z0-9]{2,10}$/.test(cells[0]!) || !/^[A-Za-z0-9]{20,100}$/.test(cells[1]!)) {
      throw new MalformedSdnError(`line ${i + 1}: expected "ASSET,address", got ${JSON.stringify(line.slice(0, 80))}`);
    }
    entries.push({ asset: cells[0]!, address: cells[1]! });
  }
  return { format: 'asset,address csv', listDate: null, entries };
}

/** Reads an SDN export (advanced XML, classic XML, sdn.csv or `asset,address` CSV). Throws MalformedSdnError when it holds no addresses. */
export function parseSdn(text: string): ParsedSdn {
  const head = text.slice(0, 4096);
  const parsed = !head.trimStart().startsWith('<')
    ? parseCsv(text)
    : /<Sanctions\b|<FeatureType\b|ADVANCED_XML/.test(head + text.slice(0, 200_000))
      ? parseAdvancedXml(text)
      : /<sdnList\b/.test(head)
        ? parseClassicXml(text)
        : null;
  if (!parsed) throw new MalformedSdnError('not an OFAC SDN XML (sdn_advanced.xml, sdn.xml) or CSV file');
  if (parsed.entries.length === 0) throw new MalformedSdnError(`${parsed.format}: no "Digital Currency Address" entries`);
  return parsed;
}
