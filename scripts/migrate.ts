import { closeDb, migrate } from '@/lib/db';
import { env } from '@/lib/env';

env();
await migrate();
console.log('migrations applied');
await closeDb();
