/** Child process for the worker-crash test: claims and attempts one tenant's deliveries, and is killed mid-attempt. */
import { getDb } from '@/lib/db';
import { parseAllowList } from '@/lib/webhooks/blocked-address';
import { deliverDue } from '@/lib/webhooks/deliver-due';

const [tenantId, leaseMs] = process.argv.slice(2);
const db = await getDb();
await deliverDue(db, { tenantId, leaseMs: Number(leaseMs), allow: parseAllowList('127.0.0.1') });
process.exit(0);
