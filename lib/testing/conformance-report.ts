import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OPERATIONS } from '@/lib/operations';
import { CONFORMANCE_DIR_ENV } from './conformance';

/** Global setup: the directory test workers append checked operations to (they inherit the environment). */
export function startConformanceLog() {
  process.env[CONFORMANCE_DIR_ENV] = mkdtempSync(path.join(tmpdir(), 'gw-conformance-'));
}

/**
 * Teardown: which operations no test's response was checked for, and which
 * were never seen answering their success status. A full run (scripts/test.ts
 * sets CONFORMANCE_STRICT=1 when no test files are named) fails on an
 * unchecked operation; a run of a few files only reports.
 */
export function finishConformanceLog(): string | null {
  const dir = process.env[CONFORMANCE_DIR_ENV];
  if (!dir) return null;
  const lines = readdirSync(dir).flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean));
  rmSync(dir, { recursive: true, force: true });
  const checked = new Set(lines.map((l) => l.split(' ')[0]));
  const succeeded = new Set(lines.filter((l) => Number(l.split(' ')[1]) < 400).map((l) => l.split(' ')[0]));
  const unchecked = OPERATIONS.filter((o) => !checked.has(o.id)).map((o) => o.id);
  const noSuccess = OPERATIONS.filter((o) => checked.has(o.id) && !succeeded.has(o.id)).map((o) => o.id);
  console.log(
    `[conformance] responses of ${checked.size}/${OPERATIONS.length} operations checked against the OpenAPI document` +
      (unchecked.length ? `; never called: ${unchecked.join(', ')}` : '') +
      (noSuccess.length ? `; never seen succeeding: ${noSuccess.join(', ')}` : ''),
  );
  if (unchecked.length && process.env.CONFORMANCE_STRICT === '1') return `operations whose responses no test checked: ${unchecked.join(', ')}`;
  return null;
}
