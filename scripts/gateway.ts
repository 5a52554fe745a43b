/**
 * Operator CLI: npm run gateway -- <command> [--flags]
 *   tenant:create --name N [--invoice-fee 0.01] [--withdrawal-fee 0.01]
 *   tenant:list
 *   key:create --tenant ID --mode test|live --scopes a,b [--name N] [--rate-limit 120] [--expires-in-days D]
 *   user:create --email E --role owner|member|support|compliance [--tenant ID] [--password P]
 *   secrets:reencrypt [--batch-size 500]
 *   screening:import <file> [--date YYYY-MM-DD] [--force]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importScreeningList } from '@/lib/screening/import-list';
import { closeDb, getDb, migrate } from '@/lib/db';
import { env } from '@/lib/env';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { CreateApiKeyBody } from '@/lib/api-keys/schemas';
import { createTenant } from '@/lib/tenants/create-tenant';
import { getTenantOrThrow } from '@/lib/tenants/get-tenant-or-throw';
import { listTenants } from '@/lib/tenants/list-tenants';
import { createUser } from '@/lib/users/create-user';
import { reencryptSecrets } from '@/lib/crypto/reencrypt-secrets';
import { ApiError } from '@/lib/api/errors';
import { ZodError } from 'zod';

class UsageError extends Error {}

function parseFlags(argv: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument "${a}"`);
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[i + 1];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    if (inline === undefined) i++;
    flags[name] = value;
  }
  return flags;
}

function required(flags: Record<string, string>, name: string): string {
  const v = flags[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

function allowOnly(flags: Record<string, string>, allowed: string[]) {
  const unknown = Object.keys(flags).filter((f) => !allowed.includes(f));
  if (unknown.length)
    throw new UsageError(`unknown flag(s): ${unknown.map((f) => `--${f}`).join(', ')}; allowed: ${allowed.map((f) => `--${f}`).join(', ')}`);
}

const USAGE = `usage: npm run gateway -- <command> [flags]
  tenant:create --name N [--invoice-fee 0.01] [--withdrawal-fee 0.01]
  tenant:list
  key:create --tenant ID --mode test|live --scopes a,b [--name N] [--rate-limit 120] [--expires-in-days D]
  user:create --email E --role owner|member|support|compliance [--tenant ID] [--password P]
  secrets:reencrypt [--batch-size 500]   seal plaintext secrets and re-seal those under SECRETS_ENCRYPTION_KEY_PREVIOUS
  screening:import <file> [--date YYYY-MM-DD] [--force]   replace the SDN screening list from sdn_advanced.xml, sdn.xml or a CSV; prints the records newly listed addresses touch (docs/screening.md)`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  // screening:import takes its file first; --force is a bare switch.
  const file = command === 'screening:import' && rest[0] && !rest[0].startsWith('--') ? rest.shift() : undefined;
  const flags = parseFlags(rest.map((a) => (a === '--force' ? '--force=true' : a)));
  env();
  const db = await getDb();
  if (env().APP_ENV !== 'production') await migrate();

  switch (command) {
    case 'tenant:create': {
      allowOnly(flags, ['name', 'invoice-fee', 'withdrawal-fee']);
      const { tenant, keys } = await createTenant(db, {
        name: required(flags, 'name'),
        invoiceFeeRate: flags['invoice-fee'],
        withdrawalFeeRate: flags['withdrawal-fee'],
      });
      print({
        tenantId: tenant.id,
        name: tenant.name,
        slug: tenant.slug,
        invoiceFeeRate: tenant.invoiceFeeRate,
        withdrawalFeeRate: tenant.withdrawalFeeRate,
        keys: { live: keys.live.key, test: keys.test.key },
      });
      break;
    }
    case 'tenant:list': {
      allowOnly(flags, []);
      const rows = await listTenants(db);
      print(
        rows.map((t) => ({
          id: t.id,
          name: t.name,
          slug: t.slug,
          status: t.status,
          invoiceFeeRate: t.invoiceFeeRate,
          withdrawalFeeRate: t.withdrawalFeeRate,
          createdAt: t.createdAt.toISOString(),
        })),
      );
      break;
    }
    case 'key:create': {
      allowOnly(flags, ['tenant', 'mode', 'scopes', 'name', 'rate-limit', 'expires-in-days']);
      const tenant = await getTenantOrThrow(db, required(flags, 'tenant'));
      const input = CreateApiKeyBody.parse({
        name: flags.name ?? 'CLI key',
        scopes: required(flags, 'scopes')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        mode: required(flags, 'mode'),
        rateLimitRpm: flags['rate-limit'] ? Number(flags['rate-limit']) : undefined,
        expiresInDays: flags['expires-in-days'] ? Number(flags['expires-in-days']) : undefined,
      });
      const key = await createApiKey(db, { ...input, tenantId: tenant.id, mode: input.mode! });
      print(key);
      break;
    }
    case 'user:create': {
      allowOnly(flags, ['email', 'role', 'tenant', 'password']);
      const password = flags.password ?? randomBytes(12).toString('base64url');
      const user = await createUser(db, {
        email: required(flags, 'email'),
        role: required(flags, 'role') as 'owner',
        tenantId: flags.tenant,
        password,
      });
      print({ ...user, ...(flags.password ? {} : { password }) });
      break;
    }
    case 'secrets:reencrypt': {
      allowOnly(flags, ['batch-size']);
      const batchSize = flags['batch-size'] === undefined ? undefined : Number(flags['batch-size']);
      if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 10_000))
        throw new UsageError('--batch-size must be an integer from 1 to 10000');
      const report = await reencryptSecrets(db, { batchSize });
      // Counts, row keys and reasons only: never a secret, sealed or not.
      print(report);
      if (report.failures.length > 0) process.exitCode = 1;
      break;
    }
    case 'screening:import': {
      allowOnly(flags, ['date', 'force']);
      if (!file) throw new UsageError('screening:import needs the file: npm run gateway -- screening:import sdn_advanced.xml');
      const report = await importScreeningList(db, readFileSync(file, 'utf8'), {
        date: flags.date,
        force: flags.force === 'true',
        actor: { kind: 'system', id: 'cli', label: 'gateway screening:import' },
      });
      print(report);
      break;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function print(value: unknown) {
  console.log(JSON.stringify(value, null, 2));
}

main()
  .then(() => closeDb())
  .catch(async (err) => {
    if (err instanceof UsageError) console.error(`error: ${err.message}\n\n${USAGE}`);
    else if (err instanceof ZodError) console.error(`error: ${err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
    else if (err instanceof ApiError) console.error(`error: ${err.message}`);
    else if (err && typeof err === 'object' && 'code' in err && err.code === '23505') console.error('error: already exists (unique constraint)');
    else console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    await closeDb().catch(() => {});
    process.exit(1);
  });
