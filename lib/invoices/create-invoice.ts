import { sql, type SQL } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { claimDepositAddress, claimPooledAddressSql } from '@/lib/chain/claim-deposit-address';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/tenants/mode';
import type { CreateInvoiceInput } from './schemas';
import { invoiceEventData, invoiceView } from './view';

/** Inserts the invoice and its invoice.created event from the `addr` CTE (address_index, address) in one statement. */
function insertSql(addr: SQL, row: Invoice): SQL {
  const ts = row.createdAt.toISOString();
  const data = invoiceEventData(row, []);
  return sql`
    with addr as (${addr}),
    inv as (
      insert into invoices (id, tenant_id, mode, status, chain, token, chain_id, deposit_address, address_index, amount_expected,
                            confirmations_required, external_id, description, metadata, expires_at, created_at, updated_at)
      select ${row.id}, ${row.tenantId}, ${row.mode}, 'PENDING', ${row.chain}, ${row.token}, ${row.chainId}, lower(addr.address), addr.address_index,
             ${row.amountExpected}::numeric, ${row.confirmationsRequired}, ${row.externalId}, ${row.description},
             ${JSON.stringify(row.metadata)}::jsonb, ${row.expiresAt.toISOString()}::timestamptz, ${ts}::timestamptz, ${ts}::timestamptz
        from addr
      returning id, address_index),
    evt as (
      insert into events (id, tenant_id, mode, type, subject_id, data, created_at)
      select ${newId('event', row.createdAt.getTime())}, ${row.tenantId}, ${row.mode}, 'invoice.created', inv.id,
             jsonb_set(${JSON.stringify(data)}::jsonb, '{depositAddress}', to_jsonb(addr.address)), ${ts}::timestamptz
        from inv, addr)
    select addr.address_index::text as address_index, addr.address from addr, inv`;
}

/**
 * Creates a PENDING invoice with a fresh deposit address and writes
 * invoice.created. Usually one statement: claim a pre-derived address, insert
 * the invoice and the event (all or nothing, one round trip). With an empty
 * pool the address is derived here first. Needs no RPC.
 */
export async function createInvoice(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chainId' | 'confirmations'> & { depositMnemonic: string },
  input: CreateInvoiceInput,
) {
  const now = new Date();
  const row: Invoice = {
    id: newId('invoice'),
    tenantId: owner.tenantId,
    mode: owner.mode,
    status: 'PENDING',
    chain: input.chain,
    token: input.token,
    chainId: network.chainId,
    // Placeholder until the statement claims the address (jsonb_set puts the real one in the event).
    depositAddress: '0x0000000000000000000000000000000000000000',
    addressIndex: -1,
    amountExpected: input.amount,
    amountReceived: '0',
    amountCredited: '0',
    feeAmount: '0',
    confirmationsRequired: network.confirmations,
    externalId: input.externalId ?? null,
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    expiresAt: new Date(now.getTime() + input.expiresInMinutes * 60_000),
    createdAt: now,
    updatedAt: now,
    payinCurrency: null,
    payinAmount: null,
    payinAddress: null,
    payinTag: null,
    payinStatus: null,
  };
  let [claimed] = rowsOf<{ address_index: string; address: string }>(await db.execute(insertSql(claimPooledAddressSql(network.depositMnemonic), row)));
  if (!claimed) {
    const { index, address } = await claimDepositAddress(db, network.depositMnemonic);
    [claimed] = rowsOf<{ address_index: string; address: string }>(
      await db.execute(insertSql(sql`select ${index}::bigint as address_index, ${getAddress(address)}::text as address`, row)),
    );
  }
  return invoiceView({ ...row, depositAddress: claimed!.address.toLowerCase(), addressIndex: Number(claimed!.address_index) }, []);
}
