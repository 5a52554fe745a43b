/**
 * PostgreSQL CPU spent for one database, read from /proc: the user + system
 * time of every backend connected to it (pg_stat_activity, autovacuum workers
 * included), sampled every 100 ms while a phase runs. A backend first seen
 * after the phase started counts from zero (its start-up is part of the cost);
 * one that exits between two samples loses at most 100 ms of its time.
 * Shared background processes (WAL writer, checkpointer) are not counted.
 * Needs PostgreSQL on this machine, as the benches have it.
 * Elapsed time (pg_stat_statements' total_exec_time) would count waits for a
 * core on this shared machine as work, and the extension is not loaded here.
 */
import { readFileSync } from 'node:fs';
import type { Sql } from 'postgres';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** application_name of the benches' own watching connections, never counted. */
export const METER_APP = 'bench-meter';

function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): utime and stime are the 14th and 15th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

export interface CpuMeter {
  /** Stops sampling; CPU seconds spent by the database's backends since start. */
  stop(): Promise<number>;
}

/** admin: a connection to any other database (its own backend is not counted). */
export async function meterDatabaseCpu(admin: Sql, datname: string): Promise<CpuMeter> {
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  const pids = async () =>
    (
      await admin`select pid from pg_stat_activity where datname = ${datname} and coalesce(application_name, '') <> ${METER_APP} and pid <> pg_backend_pid()`
    ).map((r) => Number(r.pid));
  for (const pid of await pids()) {
    const t = cpuTicks(pid);
    if (t === null) continue;
    base.set(pid, t);
    last.set(pid, t);
  }
  const sample = async () => {
    for (const pid of await pids()) {
      const t = cpuTicks(pid);
      if (t === null) continue;
      if (!base.has(pid)) base.set(pid, 0);
      last.set(pid, t);
    }
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 100));
      await sample().catch(() => {});
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sample().catch(() => {});
      let ticks = 0;
      for (const [pid, t] of last) ticks += t - (base.get(pid) ?? t);
      return ticks / TICKS;
    },
  };
}
