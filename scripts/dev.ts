/**
 * npm run dev: everything on embedded defaults with one command.
 * - database: DATABASE_URL if set, else embedded PGlite under .data/
 * - worker: inside the web process with PGlite, a separate process with PostgreSQL
 * - Next.js dev server
 * Ctrl-C stops every child.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', APP_ENV: process.env.APP_ENV ?? 'development' };

function start(name: string, cmd: string, args: string[], extra: Record<string, string> = {}) {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...env, ...extra } });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping everything`);
      shutdown(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

let shuttingDown = false;
function shutdown(code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    process.exit(code);
  }, 5_000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() => process.exit(code));
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const port = process.env.PORT ?? '3000';
const external = Boolean(process.env.DATABASE_URL);
start('next', 'npx', ['next', 'dev', '-p', port], { WORKER_INLINE: external ? 'false' : 'true' });
if (external) start('worker', 'npx', ['tsx', 'scripts/worker.ts']);
console.log(`[dev] gateway on http://localhost:${port} (database: ${external ? 'PostgreSQL' : 'embedded PGlite in .data/'})`);
