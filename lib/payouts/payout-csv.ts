import type { PayoutView } from './schemas';

/** The columns of an uploaded payout file (any order, a header row first). */
export const PAYOUT_CSV_COLUMNS = ['destinationAddress', 'amount', 'chain', 'token', 'reference'] as const;

/** RFC 4180 cells: quoted fields may hold commas, quotes ("") and line breaks. */
function cells(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === ';' || ch === '\t') endCell();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endCell();
      out.push(row);
      row = [];
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    out.push(row);
  }
  return out.filter((r) => r.some((c) => c.trim() !== ''));
}

/**
 * An uploaded or pasted file as rows of strings keyed by column; the server checks every value. A missing column
 * is the file's error (no row could be paid); unknown columns are reported, not guessed at.
 */
export function parsePayoutCsv(text: string): { rows: Record<string, string>[]; error: string | null } {
  const [header, ...body] = cells(text.replace(/^\uFEFF/, ''));
  if (!header) return { rows: [], error: 'The file is empty.' };
  const names = header.map((h) => h.trim());
  const missing = PAYOUT_CSV_COLUMNS.filter((c) => !names.some((n) => n.toLowerCase() === c.toLowerCase()));
  if (missing.length > 0)
    return {
      rows: [],
      error: `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. The header row names ${PAYOUT_CSV_COLUMNS.join(', ')}.`,
    };
  const unknown = names.filter((n) => !PAYOUT_CSV_COLUMNS.some((c) => c.toLowerCase() === n.toLowerCase()));
  if (unknown.length > 0) return { rows: [], error: `Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.` };
  const key = (n: string) => PAYOUT_CSV_COLUMNS.find((c) => c.toLowerCase() === n.toLowerCase())!;
  const rows = body.map((r) => Object.fromEntries(PAYOUT_CSV_COLUMNS.map((c) => [c, (r[names.findIndex((n) => key(n) === c)] ?? '').trim()])));
  return { rows, error: null };
}

/** A cell as a spreadsheet reads it safely: quoted when needed, and never a formula (=, +, -, @ lead with a quote). */
function csvCell(value: string | number | null): string {
  let v = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const PAYOUT_RESULT_COLUMNS = [
  'position',
  'reference',
  'status',
  'chain',
  'token',
  'destinationAddress',
  'amount',
  'feeAmount',
  'networkFeeReserved',
  'networkFee',
  'netAmount',
  'txHash',
  'withdrawalId',
  'failureReason',
] as const;

/** The results file of a payout: one line per item, in the order uploaded, amounts exactly as the API states them. */
export function payoutResultsCsv(p: PayoutView): string {
  const lines = [PAYOUT_RESULT_COLUMNS.join(',')];
  for (const i of p.items) lines.push(PAYOUT_RESULT_COLUMNS.map((c) => csvCell(i[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
