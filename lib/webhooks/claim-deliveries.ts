import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { webhookEndpoints, webhookQueue } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { RawRow } from '@/lib/db/raw-row';

/** Claims last this long: the 10 s attempt timeout plus a wide margin; past it another worker retries. */
export const CLAIM_LEASE_MS = 60_000;

export interface ClaimedDelivery {
  id: string;
  token: string;
  tenantId: string;
  mode: 'live' | 'test';
  eventId: string;
  eventType: string;
  eventCreatedAt: Date;
  /** The event's data as PostgreSQL prints it (jsonb's text form), spliced into the envelope unparsed. */
  eventDataJson: string;
  attemptCount: number;
  endpointId: string | null;
  postBackUrl: string | null;
  /** Endpoint state at claim time (null fields for postback deliveries). Secrets as stored (sealed): attemptDelivery opens them. */
  url: string | null;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  endpointActive: boolean;
  /** The API version to render the event in: the endpoint's, else the tenant's (postback deliveries: the tenant's). */
  apiVersion: string;
}

export interface ClaimOptions {
  now?: Date;
  limit: number;
  leaseMs?: number;
  /** Targets (endpoint id or postBackUrl) this worker already has enough attempts in flight for. */
  saturated?: string[];
  /** At most this many of one target per claim, so a slow endpoint cannot fill every slot. */
  perTarget?: number;
  /** Targets with attempts in flight: how many more each may start now (instead of perTarget / slowPerTarget). */
  targetRoom?: Record<string, number>;
  /** Targets known to answer slowly: at most slowPerTarget of them per claim. */
  slow?: string[];
  slowPerTarget?: number;
  /** Attempts a tenant may start in this claim unless tenantRoom names it (its share of the worker's slots). */
  perTenant?: number;
  /** Tenants with attempts in flight: how many more each may start now; 0 skips the tenant altogether. */
  tenantRoom?: Record<string, number>;
  /** Skip these targets (the loop's second pass leaves slow receivers to the tenants' shares). */
  exclude?: string[];
  /** Only this tenant's (or these tenants') deliveries (tests run side by side on one database). */
  tenantId?: string | string[];
}

/** The test-only tenant filter. */
export const tenantFilter = (tenantId: string | string[] | undefined, column = 'tenant_id') =>
  tenantId === undefined ? sql`` : sql`and ${sql.raw(column)} = any(string_to_array(${[tenantId].flat().join('\n')}, chr(10)))`;

// Timestamps come back as epoch milliseconds: driver-independent and exact.
const toDate = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)));

/**
 * For the statement that follows in the same transaction: queue ranges are read through their index, in its
 * order, never as a bitmap of the whole range sorted afterwards. With statistics that undercount a tenant's
 * backlog (taken when the queue was small; autovacuum may never run) the planner chose the bitmap, and every
 * claim read and sorted the whole backlog to take its first 224 rows: 105 ms at 300,000 queued, delivery
 * falling from 939 to 91/s as the backlog grew. (Both settings only price the other plans out; a query with no
 * usable index still runs.)
 */
export const ORDERED_SCANS_ONLY = sql.raw('set local enable_bitmapscan = off; set local enable_seqscan = off');

/** Runs one statement over the hot queue in its own transaction, with ORDERED_SCANS_ONLY. */
export function inQueueOrder(db: Db, statement: SQL) {
  return db.transaction(async (tx) => {
    await tx.execute(ORDERED_SCANS_ONLY);
    return tx.execute(statement);
  });
}

/** The claim statement of claimDeliveries (also explained by bench/queue-plans.ts). */
export function claimStatement(opts: ClaimOptions, now: Date, token: string, until: Date) {
  const nowIso = now.toISOString();
  const room = Object.entries(opts.tenantRoom ?? {});
  const full = room.filter(([, n]) => n <= 0).map(([t]) => t);
  const partial = room.filter(([, n]) => n > 0);
  const tRoom = Object.entries(opts.targetRoom ?? {});
  const skip = [...(opts.saturated ?? []), ...(opts.exclude ?? []), ...tRoom.filter(([, n]) => n <= 0).map(([t]) => t)];
  const tPartial = tRoom.filter(([, n]) => n > 0);
  return sql`
    with recursive pairs as (
      -- Every (tenant, target) with queued rows, one index probe each (a skip scan over the
      -- (tenant_id, target, next_attempt_at) index); the claim then reads each pair's due rows from the front of
      -- its own range. So a tenant at its share, or a target at its limit, is skipped without reading its rows,
      -- and a backlog costs nothing to the others (a walk in due order per tenant filtered out a saturated
      -- target's whole backlog on every claim: 260,000 rows, 137 ms).
      (select tenant_id, target from webhook_queue order by tenant_id, target limit 1)
      union all
      select n.tenant_id, n.target
        from pairs p
        cross join lateral (
          select q.tenant_id, q.target from webhook_queue q
           where (q.tenant_id, q.target) > (p.tenant_id, p.target)
           order by q.tenant_id, q.target
           limit 1
        ) n
    ), candidates as (
      select c.id, c.tenant_id, c.target, c.next_attempt_at
        from pairs p
        cross join lateral (
          select delivery_id as id, tenant_id, target, next_attempt_at
            from webhook_queue q
           where q.tenant_id = p.tenant_id and q.target = p.target and q.next_attempt_at <= ${nowIso}::timestamptz
             and (q.claimed_until is null or q.claimed_until <= ${nowIso}::timestamptz)
           order by q.next_attempt_at
           -- No target can give more than its cap or the claim's limit: reading further only fed the sorts below.
           limit ${Math.min(opts.perTarget ?? opts.limit, opts.limit)}
        ) c
       where p.target <> all(string_to_array(${skip.join('\n')}, chr(10)))
         ${tenantFilter(opts.tenantId, 'p.tenant_id')}
         -- Tenants already using their whole share of the slots: their backlog waits, others' deliveries go.
         and p.tenant_id <> all(string_to_array(${full.join('\n')}, chr(10)))
       order by c.next_attempt_at
       limit ${opts.limit * 4}
    ), picked as (
      select id from (
        select id, tenant_id, target, next_attempt_at,
               row_number() over (partition by target order by next_attempt_at) as rn,
               row_number() over (partition by tenant_id order by next_attempt_at) as tenant_rn
          from candidates
      ) r left join unnest(string_to_array(${partial.map(([t]) => t).join('\n')}, chr(10)), string_to_array(${partial.map(([, n]) => String(n)).join('\n')}, chr(10))::int[]) as room(tenant, n)
          on room.tenant = r.tenant_id
        left join unnest(string_to_array(${tPartial.map(([t]) => t).join('\n')}, chr(10)), string_to_array(${tPartial.map(([, n]) => String(n)).join('\n')}, chr(10))::int[]) as troom(target, n)
          on troom.target = r.target
       where rn <= coalesce(troom.n, case when r.target = any(string_to_array(${(opts.slow ?? []).join('\n')}, chr(10))) then ${opts.slowPerTarget ?? 1}::int
                                         else ${opts.perTarget ?? opts.limit}::int end)
         and tenant_rn <= coalesce(room.n, ${opts.perTenant ?? opts.limit}::int)
       order by next_attempt_at limit ${opts.limit}
    ), locked as (
      -- Lock only the rows we take, re-checking them: a row another worker holds or just claimed is skipped.
      -- Ids go by array (= any) rather than by join: the planner then probes the delivery_id index whatever
      -- the statistics say (a join here became a sequential scan of the whole queue with stale statistics).
      select delivery_id from webhook_queue
       where delivery_id = any(array(select id from picked))
         and (claimed_until is null or claimed_until <= ${nowIso}::timestamptz)
         for update skip locked
    ), claimed as (
      update webhook_queue q set claimed_until = ${until.toISOString()}::timestamptz, claim_token = ${token}
       where q.delivery_id = any(array(select delivery_id from locked))
      returning q.delivery_id as id, q.tenant_id, q.mode, q.event_id, q.event_type, q.attempt_count, q.endpoint_id, q.post_back_url
    )
    select c.*, floor(extract(epoch from ev.created_at) * 1000)::bigint as event_created_at, ev.data::text as event_data,
           e.url, e.secret, e.previous_secret, floor(extract(epoch from e.previous_secret_expires_at) * 1000)::bigint as previous_secret_expires_at,
           (e.id is not null and e.enabled and e.deleted_at is null) as endpoint_active,
           -- The tenant's row is read only for deliveries that follow it (coalesce stops at the first non-null).
           coalesce(e.api_version, (select t.api_version from tenants t where t.id = c.tenant_id)) as api_version
      from claimed c
      -- Lateral with limit (not flattened into a join): one primary-key probe per claimed row, never a hash join
      -- over all events, whose history only grows.
      cross join lateral (select created_at, data from events where id = c.event_id limit 1) ev
      left join webhook_endpoints e on e.id = c.endpoint_id`;
}

/**
 * Claims due deliveries from the hot queue (due, unclaimed or with an expired
 * claim) with FOR UPDATE SKIP LOCKED, so two workers never take the same one,
 * and loads what the attempt needs in the same round trip. It reads neither
 * the delivery log nor any finished delivery (queue.ts).
 */
export async function claimDeliveries(db: Db, opts: ClaimOptions): Promise<ClaimedDelivery[]> {
  const now = opts.now ?? new Date();
  const token = randomBytes(12).toString('base64url');
  const until = new Date(now.getTime() + (opts.leaseMs ?? CLAIM_LEASE_MS));
  const res = await inQueueOrder(db, claimStatement(opts, now, token, until));
  // The queue's columns typed from its declaration (db/schema/webhooks.ts), the joined ones by hand.
  type Claimed = RawRow<
    typeof webhookQueue,
    {
      tenantId: string;
      mode: 'live' | 'test';
      eventId: string;
      eventType: string;
      attemptCount: number | string;
      endpointId: string | null;
      postBackUrl: string | null;
    }
  > &
    RawRow<typeof webhookEndpoints, { url: string | null; secret: string | null; previousSecret: string | null }> & {
      id: string;
      event_created_at: unknown;
      event_data: string;
      previous_secret_expires_at: unknown;
      endpoint_active: boolean | null;
      api_version: string;
    };
  return rowsOf<Claimed>(res).map((r) => ({
    id: r.id,
    token,
    tenantId: r.tenant_id,
    mode: r.mode,
    eventId: r.event_id,
    eventType: r.event_type,
    eventCreatedAt: toDate(r.event_created_at)!,
    eventDataJson: r.event_data,
    attemptCount: Number(r.attempt_count),
    endpointId: r.endpoint_id ?? null,
    postBackUrl: r.post_back_url ?? null,
    url: r.url ?? null,
    secret: r.secret ?? null,
    previousSecret: r.previous_secret ?? null,
    previousSecretExpiresAt: toDate(r.previous_secret_expires_at),
    endpointActive: r.endpoint_active === true,
    apiVersion: r.api_version,
  }));
}
