import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { ChainKey } from '@/lib/config/rails';
import { formatAddress } from './deposit-keys';
import { familyOps } from './families';
import { depositKeyId } from './deposit-key-id';
import type { RawRow } from '@/lib/db/raw-row';
import { depositAddressPool } from '@/db/schema';

/** A claimed address as the statements return it (bigint as text): `address` stored form, `wire` as the API shows it. */
export type PooledAddress = RawRow<typeof depositAddressPool, { addressIndex: string; address: string }> & { wire: string };

/**
 * SQL for a CTE that claims one pre-derived address of the mnemonic from the pool (deleting it, so no one else
 * gets it); yields no row when the pool is empty or the network's family has no pool (`pooledAddresses`: the
 * pool holds the EVM branch; TRON addresses are derived inline). Columns: address_index, address (stored form), wire (EIP-55).
 */
export function claimPooledAddressSql(chain: ChainKey, mnemonic: string): SQL {
  if (!familyOps(chain).pooledAddresses) return sql`select null::bigint as address_index, null::text as address, null::text as wire where false`;
  const keyId = depositKeyId(mnemonic);
  return sql`delete from deposit_address_pool
     where key_id = ${keyId}
       and address_index = (select address_index from deposit_address_pool where key_id = ${keyId}
                             order by address_index limit 1 for update skip locked)
    returning address_index, lower(address) as address, address as wire`;
}

/**
 * A fresh deposit address on `chain`'s branch: pre-derived from the pool when there is one, else a new sequence
 * index derived here. Either way the index is never handed out twice; an address claimed by a request that then
 * fails is simply never used. `address` is the stored form.
 */
export async function claimDepositAddress(db: Db, chain: ChainKey, mnemonic: string): Promise<{ index: number; address: string }> {
  const [pooled] = rowsOf<PooledAddress>(await db.execute(claimPooledAddressSql(chain, mnemonic)));
  if (pooled) return { index: Number(pooled.address_index), address: pooled.address };
  return newDepositAddress(db, chain, mnemonic);
}

/** A new sequence index derived here, not from the pool: for a caller whose own statement already found the pool empty. */
export async function newDepositAddress(db: Db, chain: ChainKey, mnemonic: string): Promise<{ index: number; address: string }> {
  const [{ index }] = rowsOf<{ index: string }>(await db.execute(sql`select nextval('deposit_address_index_seq')::text as index`)) as [
    { index: string },
  ];
  return { index: Number(index), address: familyOps(chain).depositAddress(mnemonic, Number(index)) };
}

/** The claimed address as the `addr` CTE of an insert (address_index, address, wire). */
export const claimedAddressSql = (c: { index: number; address: string }): SQL =>
  sql`select ${c.index}::bigint as address_index, ${c.address}::text as address, ${formatAddress(c.address)}::text as wire`;
