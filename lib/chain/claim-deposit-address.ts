import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { depositAddress } from './deposit-account';
import { depositKeyId } from './deposit-key-id';
import type { RawRow } from '@/lib/db/raw-row';
import { depositAddressPool } from '@/db/schema';

/** A claimed pool row as the raw statements return it (bigint as text). */
export type PooledAddress = RawRow<typeof depositAddressPool, { addressIndex: string; address: string }>;

/**
 * SQL for a CTE that claims one pre-derived address of the mnemonic from the
 * pool (deleting it, so no one else gets it); yields no row when the pool is
 * empty. Columns: address_index, address (EIP-55).
 */
export function claimPooledAddressSql(mnemonic: string): SQL {
  const keyId = depositKeyId(mnemonic);
  return sql`delete from deposit_address_pool
     where key_id = ${keyId}
       and address_index = (select address_index from deposit_address_pool where key_id = ${keyId}
                             order by address_index limit 1 for update skip locked)
    returning address_index, address`;
}

/**
 * A fresh deposit address: pre-derived from the pool when there is one, else
 * a new sequence index derived here. Either way the index is never handed out
 * twice; an address claimed by a request that then fails is simply never used.
 */
export async function claimDepositAddress(db: Db, mnemonic: string): Promise<{ index: number; address: string }> {
  const [pooled] = rowsOf<PooledAddress>(await db.execute(claimPooledAddressSql(mnemonic)));
  if (pooled) return { index: Number(pooled.address_index), address: pooled.address.toLowerCase() };
  const [{ index }] = rowsOf<{ index: string }>(await db.execute(sql`select nextval('deposit_address_index_seq')::text as index`)) as [
    { index: string },
  ];
  return { index: Number(index), address: depositAddress(mnemonic, Number(index)).toLowerCase() };
}
