import { sql, type SQL } from 'drizzle-orm';
import { invoices, type Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { insertRowSql } from '@/lib/db/insert-row-sql';
import { claimedAddressSql, claimPooledAddressSql, newDepositAddress, type PooledAddress } from '@/lib/chain/claim-deposit-address';
import type { Network } from '@/lib/chain/network';
import { outbox } from '@/lib/events/outbox';
import type { Mode } from '@/lib/mode';
import { checkoutPath, newClaimToken } from './claim-token';
import { invoiceRow, toleranceOfTenantSql, type InvoicePricing } from './invoice-row';
import type { CreateInvoiceInput } from './schemas';
import { invoiceEventData, invoiceView } from './view';

/** Inserts the invoice and its invoice.created event from the `addr` CTE (address_index, address, wire) in one statement. */
function insertSql(addr: SQL, row: Invoice): SQL {
  const {
    id,
    tenantId,
    mode,
    status,
    chain,
    token,
    chainId,
    amountExpected,
    confirmationsRequired,
    externalId,
    description,
    returnUrl,
    customerEmail,
    metadata,
    expiresAt,
    priceCurrency,
    priceAmount,
    rate,
    rateSource,
    rateAt,
    paymentLinkId,
    claimTokenHash,
    createdAt,
    updatedAt,
  } = row;
  // The columns the statement always wrote; the others keep their defaults (the row's values).
  const invoice = insertRowSql(
    invoices,
    {
      id,
      tenantId,
      mode,
      status,
      chain,
      token,
      chainId,
      depositAddress: sql`addr.address`,
      addressIndex: sql`addr.address_index`,
      amountExpected,
      underpaymentTolerancePercent: toleranceOfTenantSql(tenantId),
      confirmationsRequired,
      externalId,
      description,
      returnUrl,
      customerEmail,
      metadata,
      expiresAt,
      priceCurrency,
      priceAmount,
      rate,
      rateSource,
      rateAt,
      paymentLinkId,
      claimTokenHash,
      createdAt,
      updatedAt,
    },
    { from: 'addr', returning: ['id', 'addressIndex', 'underpaymentTolerancePercent'] },
  ).sql;
  const event = outbox.row({ tenantId, mode, type: 'invoice.created', subjectId: id, data: invoiceEventData(row, []) }, createdAt);
  // The address is known only once the statement claims it.
  const data = sql`jsonb_set(${JSON.stringify(event.data)}::jsonb, '{depositAddress}', to_jsonb(addr.wire))`;
  return sql`
    with addr as (${addr}),
    inv as (${invoice}),
    evt as (${outbox.insertSql(event, { from: 'inv, addr', data })})
    select addr.address_index::text as address_index, addr.address, inv.underpayment_tolerance_percent::text as tolerance from addr, inv`;
}

/**
 * Creates a PENDING invoice with a fresh deposit address and writes
 * invoice.created. Usually one statement: claim a pre-derived address, insert
 * the invoice and the event (all or nothing, one round trip). With an empty
 * pool the address is derived here first. Needs no RPC. The tenant's
 * underpayment tolerance is copied onto the invoice by the same statement;
 * `pricing` is the locked fiat rate of a fiat-priced invoice (input.amount is then its USDT).
 * Returns the invoice with `checkoutUrl`, the hosted checkout carrying the payer's claim token: the
 * only time the token exists in clear (only its hash is stored), so only the creator may pass it on.
 */
export async function createInvoice(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chain' | 'chainId' | 'confirmations'> & { depositMnemonic: string },
  input: CreateInvoiceInput,
  pricing: InvoicePricing | null = null,
  extra: { paymentLinkId?: string; /** The clock (a subscription period's invoice on the billing job's clock). */ now?: Date } = {},
) {
  const claim = newClaimToken();
  const { now = new Date(), ...rest } = extra;
  const row = invoiceRow(owner, network, input, now, { ...rest, claimTokenHash: claim.hash }, pricing);
  type Claimed = PooledAddress & { tolerance: string };
  let [claimed] = rowsOf<Claimed>(await db.execute(insertSql(claimPooledAddressSql(network.chain, network.depositMnemonic), row)));
  if (!claimed) {
    // The statement above found the pool empty: a new index at once (asking the pool again costs a statement).
    const address = await newDepositAddress(db, network.chain, network.depositMnemonic);
    [claimed] = rowsOf<Claimed>(await db.execute(insertSql(claimedAddressSql(address), row)));
  }
  const view = invoiceView(
    {
      ...row,
      depositAddress: claimed!.address,
      addressIndex: Number(claimed!.address_index),
      underpaymentTolerancePercent: claimed!.tolerance,
    },
    [],
  );
  return { ...view, checkoutUrl: checkoutPath(row.id, claim.token) };
}
