import { sql } from 'drizzle-orm';
import { invoices } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { depositAccount } from '@/lib/chain/deposit-account';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/tenants/mode';
import { writeInvoiceEvents } from './write-invoice-events';
import type { CreateInvoiceInput } from './schemas';
import { invoiceView } from './view';

/**
 * Creates a PENDING invoice with a fresh deposit address and writes
 * invoice.created in the same transaction. Needs no RPC: only the network's
 * chain id, confirmations and deposit mnemonic.
 */
export async function createInvoice(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chainId' | 'confirmations'> & { depositMnemonic: string },
  input: CreateInvoiceInput,
) {
  return db.transaction(async (tx) => {
    const [{ index }] = rowsOf<{ index: string }>(await tx.execute(sql`select nextval('deposit_address_index_seq')::text as index`)) as [
      { index: string },
    ];
    const addressIndex = Number(index);
    const address = depositAccount(network.depositMnemonic, addressIndex).address.toLowerCase();
    const now = new Date();
    const [row] = await tx
      .insert(invoices)
      .values({
        id: newId('invoice'),
        tenantId: owner.tenantId,
        mode: owner.mode,
        status: 'PENDING',
        chain: input.chain,
        token: input.token,
        chainId: network.chainId,
        depositAddress: address,
        addressIndex,
        amountExpected: input.amount,
        confirmationsRequired: network.confirmations,
        externalId: input.externalId ?? null,
        description: input.description ?? null,
        metadata: input.metadata ?? {},
        expiresAt: new Date(now.getTime() + input.expiresInMinutes * 60_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await writeInvoiceEvents(tx, [{ invoice: row!, type: 'invoice.created', txHashes: [] }]);
    return invoiceView(row!, []);
  });
}
