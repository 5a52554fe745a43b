import type { Invoice } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreateInvoiceInput } from './schemas';

/** What only the caller knows: the claimed address, and for pay-ins the exchange order's fields and expiry. */
type Extra = Partial<
  Pick<Invoice, 'depositAddress' | 'addressIndex' | 'expiresAt' | 'payinCurrency' | 'payinAmount' | 'payinAddress' | 'payinTag' | 'payinStatus'>
>;

/**
 * A new PENDING invoice as stored: the one builder of invoice rows (POST
 * /v1/invoices, storefront orders and exchange pay-ins), so a column added to
 * `invoices` is set in one place. Fields the database would default are given
 * their default values, so the row equals what a RETURNING * would give.
 */
export function invoiceRow(
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chainId' | 'confirmations'>,
  input: CreateInvoiceInput,
  now: Date,
  extra: Extra = {},
): Invoice {
  return {
    id: newId('invoice'),
    tenantId: owner.tenantId,
    mode: owner.mode,
    status: 'PENDING',
    chain: input.chain,
    token: input.token,
    chainId: network.chainId,
    // Placeholder until the address is claimed (create-invoice claims it in its statement).
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
    ...extra,
  };
}
