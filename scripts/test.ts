/**
 * npm test: every test, against a fresh PostgreSQL database.
 *  1. creates gw_test_<timestamp> on PostgreSQL (TEST_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres)
 *  2. vitest: unit and integration tests (real PostgreSQL, anvil where needed)
 *  3. next build, then Playwright (e2e/) against `next start` processes
 *  4. drops the database
 * SKIP_E2E=1 stops after vitest; E2E_ONLY=1 (npm run e2e) skips it; extra arguments go to vitest, or with E2E_ONLY to Playwright.
 */
import { spawnSync } from 'node:child_process';
import postgres from 'postgres';

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `gw_test_${Date.now()}_${process.pid}`;
const testUrl = new URL(adminUrl);
testUrl.pathname = `/${dbName}`;

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${dbName}`);
console.log(`[test] database ${dbName}`);

const env = { ...process.env, DATABASE_URL: testUrl.toString(), APP_ENV: 'test', NEXT_TELEMETRY_DISABLED: '1' };
function run(cmd: string, args: string[], extra: Record<string, string> = {}) {
  console.log(`[test] ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...env, ...extra } });
  return r.status ?? 1;
}

// A full run fails when some operation's responses were never checked against the OpenAPI document (lib/testing/conformance.ts).
let status =
  process.env.E2E_ONLY === '1'
    ? 0
    : run('npx', ['vitest', 'run', ...process.argv.slice(2)], process.argv.length > 2 ? {} : { CONFORMANCE_STRICT: '1' });
// Playwright gets a database of its own: the vitest run leaves thousands of events and deliveries to
// receivers that no longer exist, which the e2e worker would otherwise have to wade through first.
const e2eName = `${dbName}_e2e`;
const e2eUrl = new URL(adminUrl);
e2eUrl.pathname = `/${e2eName}`;
if (status === 0 && process.env.SKIP_E2E !== '1') {
  status = run('npx', ['next', 'build']);
  if (status === 0) {
    await admin.unsafe(`create database ${e2eName}`);
    // `npm run e2e -- e2e/x.spec.ts` runs those specs only (the arguments are Playwright's when vitest is skipped).
    const specs = process.env.E2E_ONLY === '1' ? process.argv.slice(2) : [];
    status = run('npx', ['playwright', 'test', ...specs], { DATABASE_URL: e2eUrl.toString() });
  }
}

if (process.env.KEEP_TEST_DB !== '1') {
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`drop database if exists ${e2eName} with (force)`);
}
await admin.end();
process.exit(status);
