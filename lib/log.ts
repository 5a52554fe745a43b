import { env } from '@/lib/env';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

// Values under these keys are never written: API keys, secrets, mnemonics.
const SECRET_KEY = /authorization|secret|password|mnemonic|private|^key$|token/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : v;
  return out;
}

const taps = new Set<(line: string, level: Level) => void>();

/**
 * Sees every line as it would be written, whatever LOG_LEVEL says (tests scan them for secrets).
 * Returns the function that removes the tap.
 */
export function tapLog(fn: (line: string, level: Level) => void): () => void {
  taps.add(fn);
  return () => taps.delete(fn);
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  let threshold: Level = 'info';
  try {
    threshold = env().LOG_LEVEL;
  } catch {
    /* env errors are reported by env() itself */
  }
  const below = LEVELS[level] < LEVELS[threshold];
  if (below && taps.size === 0) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...redact(fields) });
  for (const tap of taps) tap(line, level);
  if (below) return;
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}

export const log = {
  debug: (msg: string, f?: Record<string, unknown>) => write('debug', msg, f),
  info: (msg: string, f?: Record<string, unknown>) => write('info', msg, f),
  warn: (msg: string, f?: Record<string, unknown>) => write('warn', msg, f),
  error: (msg: string, f?: Record<string, unknown>) => write('error', msg, f),
};
