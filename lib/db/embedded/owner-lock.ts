import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Who holds a data directory's embedded database, as recorded in DATA_DIR/pglite.owner.json. */
export interface EmbeddedOwner {
  pid: number;
  command: string;
  startedAt: string;
  /** Unix socket the owner serves the database on; absent while it is still opening it. */
  socket?: string;
}

export class EmbeddedDbBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: EmbeddedOwner,
  ) {
    super(
      `the embedded database in ${dataDir} is owned by another process (pid ${owner.pid}: ${owner.command}); ` +
        'it is never opened twice. Stop that process, or let this one connect through its socket.',
    );
  }
}

export function ownerFile(dataDir: string): string {
  return path.join(dataDir, 'pglite.owner.json');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function read(file: string): { owner: EmbeddedOwner | null; raw: string; ageMs: number } | null {
  try {
    const raw = readFileSync(file, 'utf8');
    const ageMs = Date.now() - statSync(file).mtimeMs;
    try {
      return { owner: JSON.parse(raw) as EmbeddedOwner, raw, ageMs };
    } catch {
      return { owner: null, raw, ageMs };
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The live owner of dataDir's database, or null when nobody (or only a dead process) holds it. */
export function liveOwner(dataDir: string): EmbeddedOwner | null {
  const r = read(ownerFile(dataDir));
  if (!r) return null;
  // A file being written this instant has no JSON yet: count it as held.
  if (!r.owner) return r.ageMs < 5_000 ? { pid: 0, command: 'starting', startedAt: '' } : null;
  return alive(r.owner.pid) ? r.owner : null;
}

function create(file: string, me: EmbeddedOwner): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes an owner file left by a dead process. Two processes may find the same stale file:
 * the one that creates the `.break` file first removes it (after checking it is still the
 * same stale content), so a fresh owner file written meanwhile is never removed.
 */
function breakStale(file: string, staleRaw: string) {
  const breaker = `${file}.break`;
  const me: EmbeddedOwner = { pid: process.pid, command: 'breaking a stale lock', startedAt: new Date().toISOString() };
  if (!create(breaker, me)) {
    const b = read(breaker);
    if (b && (b.ageMs > 10_000 || (b.owner && !alive(b.owner.pid)))) unlinkSync(breaker);
    return;
  }
  try {
    const now = read(file);
    if (now && now.raw === staleRaw) unlinkSync(file);
  } finally {
    unlinkSync(breaker);
  }
}

export interface Ownership {
  publish(socket: string): void;
  release(): void;
}

/**
 * Takes ownership of dataDir's embedded database (an exclusive-create lock file holding this
 * process's pid and command), or throws EmbeddedDbBusyError naming the live owner.
 */
export function acquireOwnership(dataDir: string): Ownership {
  mkdirSync(dataDir, { recursive: true });
  const file = ownerFile(dataDir);
  const me: EmbeddedOwner = { pid: process.pid, command: process.argv.slice(1).join(' ').slice(0, 200), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (create(file, me)) {
      let released = false;
      return {
        publish(socket) {
          Object.assign(me, { socket });
          // Atomic replace: readers see the old or the new content, never a half-written file.
          const tmp = `${file}.${process.pid}.tmp`;
          writeFileSync(tmp, JSON.stringify(me), { mode: 0o600 });
          renameSync(tmp, file);
        },
        release() {
          if (released) return;
          released = true;
          const r = read(file);
          if (r?.owner?.pid === process.pid) unlinkSync(file);
        },
      };
    }
    const r = read(file);
    if (!r) continue;
    if (r.owner && alive(r.owner.pid)) throw new EmbeddedDbBusyError(dataDir, r.owner);
    if (!r.owner && r.ageMs < 5_000) throw new EmbeddedDbBusyError(dataDir, { pid: 0, command: 'a process that is starting', startedAt: '' });
    breakStale(file, r.raw);
  }
  throw new Error(`could not take the embedded database lock ${file}`);
}
