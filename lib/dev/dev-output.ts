/**
 * What `npm run dev` passes on of Next's standard output (scripts/dev.ts pipes it through here, line by line).
 * Two things Next prints read as faults to a new user and are dropped (issue 45):
 * - "⨯ turbopackFileSystemCacheForDev" in Next's list of experiments: Next marks a flag set to false with the same
 *   "⨯" it puts before errors. The cache is off on purpose (next.config.ts says why); only that exact line goes,
 *   so a real "⨯ …" error still shows.
 * - "ESC[?25h", the show-cursor sequence Next's CLI writes as it exits: Next's output is a pipe here, so it never
 *   hid the cursor, and in a log or a terminal that lost the race with the shell prompt it showed as a stray escape.
 */
const ANSI = /\x1B\[[0-9;?]*[A-Za-z]/g;
const SHOW_CURSOR = /\x1B\[\?25h/g;
/** Experiments next.config.ts turns off on purpose. */
const QUIET_OFF_EXPERIMENTS = new Set(['turbopackFileSystemCacheForDev']);

/** Whether a line of Next's output is one of the misleading ones above (colours and indentation ignored). */
export function isMisleadingDevLine(line: string): boolean {
  const plain = line.replace(ANSI, '').trim();
  const m = /^⨯ (\S+)$/.exec(plain);
  return m !== null && QUIET_OFF_EXPERIMENTS.has(m[1]!);
}

/**
 * Filters a stream of chunks by whole lines: push() returns what can be written now (complete lines that pass),
 * end() the rest. A chunk may end mid-line; that part waits for its newline.
 */
export class DevOutputFilter {
  private pending = '';

  push(chunk: string): string {
    const text = this.pending + chunk.replace(SHOW_CURSOR, '');
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      this.pending = text;
      return '';
    }
    this.pending = text.slice(cut + 1);
    return keep(text.slice(0, cut + 1));
  }

  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest.length === 0 || isMisleadingDevLine(rest) ? '' : rest;
  }
}

function keep(lines: string): string {
  return lines
    .split(/(?<=\n)/)
    .filter((l) => !isMisleadingDevLine(l))
    .join('');
}
