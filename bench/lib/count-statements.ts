/**
 * Statements and round trips to PostgreSQL, counted in this process at the socket: pg_stat_statements needs
 * shared_preload_libraries (a server restart), and a round trip is a client-side fact anyway. Every outgoing
 * message of the wire protocol is parsed (a `Q` simple query or an `E` execute is one statement; `P` parse gives
 * its text), and a round trip is a write followed by the server's answer on the same socket, so pipelined
 * statements (written before any answer arrives) share one.
 */
import net from 'node:net';

interface Sent {
  kind: 'w';
  texts: string[];
}
type Event = Sent | { kind: 'r' };

export interface Counted {
  statements: number;
  roundTrips: number;
  /** Round trips from the one that sends the locking statement to the one that ends its transaction. */
  lockedRoundTrips: number;
  texts: string[];
  /** The statements of each round trip, in the order written. */
  batches: string[][];
}

const names = new Map<string, string>();
let log: Map<net.Socket, Event[]> | null = null;
let port = 5432;

function parse(buf: Buffer): string[] {
  const texts: string[] = [];
  let pendingParse = '';
  for (let at = 0; at + 5 <= buf.length;) {
    const type = String.fromCharCode(buf[at]!);
    const len = buf.readInt32BE(at + 1);
    const body = buf.subarray(at + 5, at + 1 + len);
    const cstr = (from: number) => body.subarray(from, body.indexOf(0, from)).toString();
    if (type === 'Q') texts.push(cstr(0));
    if (type === 'P') {
      const name = cstr(0);
      pendingParse = cstr(name.length + 1);
      names.set(name, pendingParse);
    }
    if (type === 'B') {
      const portal = cstr(0);
      pendingParse = names.get(cstr(portal.length + 1)) ?? pendingParse;
    }
    if (type === 'E') texts.push(pendingParse || '?');
    at += 1 + len;
  }
  return texts;
}

/** Patches the socket once, at import: statements prepared before counting starts are named then. */
function install() {
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    // Parsed even when not counting, to learn the text of each named (prepared) statement.
    if (this.remotePort === port && Buffer.isBuffer(chunk)) {
      const texts = parse(chunk);
      if (log) {
        const events = log.get(this) ?? [];
        log.set(this, events);
        events.push({ kind: 'w', texts });
      }
    }
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  const emit = net.Socket.prototype.emit;
  net.Socket.prototype.emit = function (this: net.Socket, event: string | symbol, ...args: unknown[]) {
    if (log && event === 'data' && this.remotePort === port) log.get(this)?.push({ kind: 'r' });
    return (emit as (...a: unknown[]) => boolean).call(this, event, ...args);
  } as typeof emit;
}

install();

const isBegin = (t: string) => /^\s*begin\b/i.test(t);
const isEnd = (t: string) => /^\s*(commit|rollback)\b/i.test(t);

/**
 * Runs `fn` and counts what it sent to the database on `dbPort`. `locking` picks the statement that takes the
 * balance row lock (the first that matches); it is held until its transaction ends, or its own answer when it
 * ran outside one.
 */
export async function countStatements(fn: () => Promise<unknown>, locking: RegExp | null, dbPort = 5432): Promise<Counted> {
  port = dbPort;
  log = new Map();
  try {
    await fn();
  } finally {
    // Answers in flight when fn returned are already read: fn awaited them.
  }
  const events = log;
  log = null;
  const out: Counted = { statements: 0, roundTrips: 0, lockedRoundTrips: 0, texts: [], batches: [] };
  for (const evs of events.values()) {
    let inTx = false;
    // 0: before the lock, 1: holding it, 2: released (after the answer that ends it).
    let lock = 0;
    let endsLock = false;
    let batch: string[] = [];
    for (let i = 0; i < evs.length; i++) {
      const e = evs[i]!;
      if (e.kind === 'w') {
        for (const t of e.texts) {
          out.statements++;
          const short = t.replace(/\s+/g, ' ').trim().slice(0, 300);
          out.texts.push(short);
          batch.push(short);
          if (isBegin(t)) inTx = true;
          if (lock === 0 && locking?.test(t)) {
            lock = 1;
            if (!inTx) endsLock = true;
          }
          if (isEnd(t)) {
            inTx = false;
            if (lock === 1) endsLock = true;
          }
        }
      } else if (evs[i - 1]?.kind === 'w') {
        out.roundTrips++;
        out.batches.push(batch);
        batch = [];
        if (lock === 1) {
          out.lockedRoundTrips++;
          if (endsLock) lock = 2;
        }
      }
    }
  }
  return out;
}
