import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { env } from '@/lib/env';
import { lockedLocally, rememberLock } from './lock-memo';
import { withThrottleSlot } from './throttle-slots';

/**
 * Attempt throttling shared by sign-in, sign-up and 2FA changes. Each key gets
 * `limit` attempts per window; the attempt that reaches the limit locks the
 * key for 30 s, and every attempt allowed after a lock locks it again for twice
 * as long (1 min, 2 min, ... capped at 15 min). A locked key is refused before
 * any work, and a refused attempt changes nothing, so hammering a locked key
 * neither extends the lock nor counts against the other keys.
 *
 * Attempts are counted before the work they guard, in one statement that locks
 * the keys' rows, decides and increments: a concurrent burst cannot slip past
 * the limit between a check and a later write.
 */
export type ThrottleKey = { key: string; limit: number };
/** `known`: the `knownBy` key succeeded recently (the owner's own address, for sign-in). */
export type ThrottleVerdict = { allowed: true; known: boolean } | { allowed: false; retryAfterSeconds: number };

const WINDOW_MS = 15 * 60_000;
const MAX_LOCK_S = 15 * 60;
/** A sign-in from an address that succeeded for the account this recently passes the account-wide lock. */
const KNOWN_ADDRESS_DAYS = 30;

/**
 * Sign-in keys. The pair (account, address) is the brute-force limit; an
 * attacker elsewhere locks only their own pair, never the owner's. The
 * address key slows one address trying many accounts. The account key counts
 * attempts from everywhere with a much higher limit (a distributed guess); once
 * reached it refuses addresses that never signed in to the account, while the
 * owner's known addresses still get in.
 */
export function signInKeys(email: string, ip: string) {
  const e = env();
  const acct = email.toLowerCase();
  return {
    acct: { key: `acct:${acct}`, limit: e.LOGIN_ACCOUNT_LIMIT },
    ip: { key: `ip:${ip}`, limit: e.LOGIN_ADDRESS_LIMIT },
    pair: { key: `pair:${acct}|${ip}`, limit: e.LOGIN_PAIR_LIMIT },
  };
}

const keyValues = (keys: ThrottleKey[]): SQL =>
  sql.join(
    keys.map((k) => sql`(${k.key}::text, ${k.limit}::int)`),
    sql`, `,
  );

/**
 * Counts one attempt against every key, or none when any key is locked.
 * `knownPass` names a key whose lock does not apply when the `knownBy` pair
 * key has succeeded recently (the account-wide sign-in lock).
 */
export async function takeAttempt(
  db: Db,
  keys: ThrottleKey[],
  opts: { windowMs?: number; knownPass?: string; knownBy?: string } = {},
): Promise<ThrottleVerdict> {
  // The account-wide key's lock depends on who asks (known addresses pass it), so it is never decided locally.
  const local = lockedLocally(keys.map((k) => k.key).filter((k) => k !== opts.knownPass));
  if (local > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(local / 1000)) };
  const verdict = await withThrottleSlot(() => countAttempt(db, keys, opts));
  if (!verdict.allowed) for (const b of verdict.blocked) if (b.key !== opts.knownPass) rememberLock(b.key, Date.now() + b.ms);
  return verdict.allowed ? verdict : { allowed: false, retryAfterSeconds: verdict.retryAfterSeconds };
}

type Counted = { allowed: true; known: boolean } | { allowed: false; retryAfterSeconds: number; blocked: { key: string; ms: number }[] };

async function countAttempt(db: Db, keys: ThrottleKey[], opts: { windowMs?: number; knownPass?: string; knownBy?: string }): Promise<Counted> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  const windowS = (opts.windowMs ?? WINDOW_MS) / 1000;
  // Rows must exist before the counting statement's snapshot, or a burst on a new key would all read "absent".
  await db.execute(
    sql`insert into login_throttles (key) select k from unnest(array[${sql.join(
      sorted.map((k) => sql`${k.key}::text`),
      sql`, `,
    )}]) k on conflict (key) do nothing`,
  );
  const res = await db.execute(sql`
    with cur as (
      select t.key, t.failures, t.window_started_at, t.locked_until, t.succeeded_at, k.lim
        from login_throttles t join (values ${keyValues(sorted)}) as k(key, lim) on k.key = t.key
       order by t.key
         for update of t
    ), known as (
      select coalesce(bool_or(succeeded_at > now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})), false) as yes
        from cur where key = ${opts.knownBy ?? ''}
    ), state as (
      select key, lim, locked_until,
             coalesce(locked_until > now(), false) and not (key = ${opts.knownPass ?? ''} and (select yes from known)) as blocking,
             coalesce(locked_until > now(), false) as locked,
             case when window_started_at < now() - make_interval(secs => ${windowS}) and not coalesce(locked_until > now(), false)
                  then 0 else failures end as used
        from cur
    ), verdict as (
      select not coalesce(bool_or(blocking), false) as ok, max(locked_until) filter (where blocking) as until from state
    ), upd as (
      update login_throttles t set
        failures = s.used + 1,
        window_started_at = case when s.used = 0 or s.used + 1 >= s.lim then now() else t.window_started_at end,
        locked_until = case when s.used + 1 >= s.lim
          then now() + make_interval(secs => least(${MAX_LOCK_S}, 30 * power(2, least(s.used + 1 - s.lim, 10))))
          else t.locked_until end
        from state s
       where t.key = s.key and not s.locked and (select ok from verdict)
      returning t.key
    )
    select ok, ceil(extract(epoch from (until - now())))::int as wait, (select yes from known) as known,
           (select coalesce(json_agg(json_build_object('key', key, 'ms', floor(extract(epoch from (locked_until - now())) * 1000))), '[]')
              from state where blocking) as blocked
      from verdict`);
  const row = rowsOf<{ ok: boolean; wait: number | null; known: boolean | null; blocked: { key: string; ms: number }[] | string }>(res)[0]!;
  if (row.ok) return { allowed: true, known: row.known === true };
  const blocked = typeof row.blocked === 'string' ? (JSON.parse(row.blocked) as { key: string; ms: number }[]) : row.blocked;
  return { allowed: false, retryAfterSeconds: Math.max(1, row.wait ?? 1), blocked: blocked.map((b) => ({ key: b.key, ms: Number(b.ms) })) };
}

/**
 * A successful sign-in: the pair key is cleared and remembered as a known
 * address, and the other keys get this attempt back (one count off). Only a
 * full success gives anything back: refunding "right password, code missing"
 * would let someone holding the password guess codes forever.
 */
export async function recordSignInSuccess(db: Db, keys: { acct: ThrottleKey; ip: ThrottleKey; pair: ThrottleKey }): Promise<void> {
  await db.execute(sql`
    update login_throttles set
      failures = case when key = ${keys.pair.key} then 0 else greatest(failures - 1, 0) end,
      locked_until = case when key = ${keys.pair.key} then null else locked_until end,
      succeeded_at = case when key = ${keys.pair.key} then now() else succeeded_at end
     where key in (${keys.acct.key}, ${keys.ip.key}, ${keys.pair.key})`);
}
