import { createServer, type Server, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** A FIFO lock: PGlite is one session, so one client at a time may use it. */
class Turn {
  private tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

/**
 * Serves one PGlite instance over the PostgreSQL wire protocol on a Unix socket, to any
 * number of clients (the web process, the CLI, migrations, scripts).
 *
 * PGlite is a single session, so clients must not interleave inside each other's work. A client
 * holds the session from its first message until PGlite answers a Sync or simple Query outside a
 * transaction block; others wait their turn. That is transaction pooling, as pgbouncer does it:
 * a transaction or an extended-protocol exchange (Parse/Bind/Execute/Sync) is never split.
 * pglite-socket's own queue switches clients between single messages outside explicit
 * transactions, which mixes one client's Parse with another's Bind, so it is not used.
 * Clients must therefore not rely on session state: no named prepared statements
 * (postgres.js `prepare: false`), no session settings, no session advisory locks.
 */
export async function serveEmbedded(db: PGlite, socketPath: string): Promise<{ close(): Promise<void> }> {
  const turn = new Turn();
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let buf: Buffer = Buffer.alloc(0);
    let started = false;
    let release: (() => void) | null = null;
    let closed = false;
    let chain = Promise.resolve();

    const exec = (msg: Uint8Array, onData?: (d: Uint8Array) => void) =>
      db.runExclusive(() => db.execProtocolRawStream(msg, { onRawData: onData ?? (() => {}) }));

    async function drain() {
      for (;;) {
        if (closed) return;
        let msg: Buffer;
        let type: number | null = null;
        if (!started) {
          if (buf.length < 8) return;
          const len = buf.readInt32BE(0);
          if (buf.length < len) return;
          const code = buf.readInt32BE(4);
          msg = buf.subarray(0, len);
          buf = buf.subarray(len);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end();
            return;
          }
          started = true;
        } else {
          if (buf.length < 5) return;
          const len = 1 + buf.readInt32BE(1);
          if (buf.length < len) return;
          type = buf[0]!;
          msg = buf.subarray(0, len);
          buf = buf.subarray(len);
          if (type === 0x58 /* Terminate */) {
            socket.end();
            return;
          }
        }
        release ??= await turn.acquire();
        if (closed) return;
        await exec(new Uint8Array(msg), (d) => {
          if (!socket.destroyed) socket.write(Buffer.from(d));
        });
        // Startup, Sync and Query end with ReadyForQuery: the session is free unless a transaction is open.
        const answered = type === null || type === 0x53 /* Sync */ || type === 0x51; /* Query */
        if (answered && !db.isInTransaction()) {
          release();
          release = null;
        }
      }
    }

    socket.on('data', (d: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      chain = chain.then(drain).catch(() => {
        socket.destroy();
      });
    });
    const onClose = () => {
      if (closed) return;
      closed = true;
      sockets.delete(socket);
      // A client that went away mid-exchange or mid-transaction: end both before the next one's turn.
      chain = chain.then(async () => {
        if (!release) return;
        try {
          await exec(SYNC);
          if (db.isInTransaction()) await db.runExclusive(() => db.exec('ROLLBACK'));
        } finally {
          release();
          release = null;
        }
      });
    };
    socket.on('close', onClose);
    socket.on('error', () => socket.destroy());
  });

  try {
    unlinkSync(socketPath);
  } catch {
    /* none left over */
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
