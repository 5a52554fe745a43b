import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireOwnership, EmbeddedDbBusyError, liveOwner, type EmbeddedOwner } from './owner-lock';
import { serveEmbedded } from './server';

export { EmbeddedDbBusyError, liveOwner, type EmbeddedOwner };

/** The owner's running database: the socket to reach it and how to stop it. */
export interface EmbeddedHost {
  socket: string;
  close(): Promise<void>;
}

/** Unix socket paths are limited to ~107 bytes; a deep DATA_DIR gets a socket in the temp directory. */
export function socketPathFor(dataDir: string): string {
  const inDir = path.join(dataDir, 'pglite.sock');
  if (Buffer.byteLength(inDir) < 100) return inDir;
  return path.join(tmpdir(), `gw-pglite-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

/**
 * Opens dataDir's PGlite database in this process and serves it on a Unix socket, after taking
 * the directory's owner lock. Throws EmbeddedDbBusyError (naming the owner) if another live
 * process holds it: the directory is never opened twice. `owned` is called once the lock is taken, before the
 * database opens: from then on a process that asks for the socket (embeddedSocket) waits for this one's.
 */
export async function hostEmbedded(dataDir: string, opts: { owned?: () => void } = {}): Promise<EmbeddedHost> {
  const dir = path.resolve(dataDir);
  const ownership = acquireOwnership(dir);
  opts.owned?.();
  try {
    const pgdata = path.join(dir, 'pglite');
    mkdirSync(pgdata, { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(pgdata);
    const socket = socketPathFor(dir);
    const server = await serveEmbedded(db, socket);
    ownership.publish(socket);
    let closing: Promise<void> | undefined;
    return {
      socket,
      close: () =>
        (closing ??= (async () => {
          await server.close();
          await db.close();
          ownership.release();
        })()),
    };
  } catch (e) {
    ownership.release();
    throw e;
  }
}

function reachable(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    if (!existsSync(socket)) return resolve(false);
    const c = connect(socket);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/**
 * The socket of dataDir's embedded database: the live owner's, or (with nobody owning it)
 * this process's own after it becomes the owner. Waits for an owner that is still opening
 * the database; a dead owner's lock is taken over.
 */
export async function embeddedSocket(dataDir: string, opts: { waitMs?: number } = {}): Promise<{ socket: string; host?: EmbeddedHost }> {
  const dir = path.resolve(dataDir);
  const deadline = Date.now() + (opts.waitMs ?? 60_000);
  let last: EmbeddedOwner | null = null;
  for (;;) {
    const owner = liveOwner(dir);
    if (owner?.socket && (await reachable(owner.socket))) return { socket: owner.socket };
    if (!owner) {
      try {
        const host = await hostEmbedded(dir);
        return { socket: host.socket, host };
      } catch (e) {
        if (!(e instanceof EmbeddedDbBusyError)) throw e;
      }
    } else last = owner;
    if (Date.now() > deadline) {
      throw new Error(`the embedded database in ${dir} is owned by pid ${last?.pid} (${last?.command}), which does not answer on its socket`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
