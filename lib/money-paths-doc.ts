import { ACTORS, CONTROLS, MONEY_PATHS, type Grant } from './money-paths';

export const DOC_START = '<!-- money-paths:start (rendered from lib/money-paths.ts by `npx tsx scripts/render-money-paths.ts`; do not edit) -->';
export const DOC_END = '<!-- money-paths:end -->';

const cell = (g: Grant) =>
  'refused' in g
    ? `refused: ${g.refused}`
    : `**yes**: ${g.controls.length ? g.controls.map((c) => `\`${c}\``).join(', ') : 'no control'}${g.note ? ` (${g.note})` : ''}`;

/** docs/withdrawals.md's "Who may move money": one table per path, every actor a row, then the controls' meanings. */
export function renderMoneyPaths(): string {
  const out: string[] = [DOC_START, ''];
  for (const [id, p] of Object.entries(MONEY_PATHS)) {
    const via = [...p.operations.map((o) => `API \`${o}\``), p.entry].join('; ');
    out.push(`#### ${p.title} (\`${id}\`)`, '', `Started by: ${via}.`, '', '| actor | may start it |', '|---|---|');
    for (const a of ACTORS) out.push(`| \`${a}\` | ${cell(p.actors[a])} |`);
    out.push('');
  }
  out.push('Controls:', '');
  for (const [c, meaning] of Object.entries(CONTROLS)) out.push(`- \`${c}\`: ${meaning}`);
  out.push('', DOC_END);
  return out.join('\n');
}

/** The document with its rendered section replaced (or the section as it should be, for the test). */
export function withRenderedSection(doc: string): string {
  const start = doc.indexOf('<!-- money-paths:start');
  const end = doc.indexOf(DOC_END);
  if (start < 0 || end < 0) throw new Error('docs/withdrawals.md has no money-paths section markers');
  return doc.slice(0, start) + renderMoneyPaths() + doc.slice(end + DOC_END.length);
}
