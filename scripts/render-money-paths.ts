import { readFileSync, writeFileSync } from 'node:fs';
import { withRenderedSection } from '@/lib/money-paths-doc';

// Rewrites docs/withdrawals.md's "Who may move money" tables from lib/money-paths.ts (lib/money-paths.test.ts checks).
const path = 'docs/withdrawals.md';
writeFileSync(path, withRenderedSection(readFileSync(path, 'utf8')));
