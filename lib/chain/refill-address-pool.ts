import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { depositAddress } from './deposit-account';
import { depositKeyId } from './deposit-key-id';

/**
 * Keeps `target` pre-derived deposit addresses ready for a mnemonic (a
 * background job): deriving one costs an elliptic-curve multiplication, which
 * invoice creation then skips. Indexes come from the same sequence as inline
 * derivation. Yields between batches so it never blocks the event loop long.
 */
export async function refillAddressPool(db: Db, mnemonic: string, opts: { target?: number; batch?: number; signal?: AbortSignal } = {}) {
  const keyId = depositKeyId(mnemonic);
  const target = opts.target ?? 5_000;
  const batch = opts.batch ?? 200;
  const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from deposit_address_pool where key_id = ${keyId}`)) as [
    { n: string },
  ];
  let missing = target - Number(n);
  let added = 0;
  while (missing > 0 && !opts.signal?.aborted) {
    const size = Math.min(batch, missing);
    const indexes = rowsOf<{ i: string }>(
      await db.execute(sql`select nextval('deposit_address_index_seq')::text as i from generate_series(1, ${size}::int)`),
    );
    const rows = indexes.map(({ i }) => sql`(${keyId}, ${Number(i)}, ${depositAddress(mnemonic, Number(i))})`);
    await db.execute(sql`insert into deposit_address_pool (key_id, address_index, address) values ${sql.join(rows, sql`, `)}`);
    added += size;
    missing -= size;
    await new Promise((r) => setImmediate(r));
  }
  return added;
}
