import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';

/**
 * Reserves a sender's next nonce inside the caller's transaction, never below
 * what the chain reports pending. The row lock it takes serialises every lane
 * that signs for the same address (settlement sweeps and withdrawals share the
 * hot wallet). One statement: the upsert stores the nonce after the one handed out.
 */
export async function reserveNonce(tx: Db, chainId: number, address: string, chainPending: number): Promise<number> {
  const [row] = rowsOf<{ nonce: string | number }>(
    await tx.execute(sql`
      insert into wallet_nonces (chain_id, address, next_nonce) values (${chainId}, ${address}, ${chainPending + 1})
      on conflict (chain_id, address)
        do update set next_nonce = greatest(wallet_nonces.next_nonce, excluded.next_nonce - 1) + 1
      returning next_nonce - 1 as nonce`),
  );
  return Number(row!.nonce);
}
