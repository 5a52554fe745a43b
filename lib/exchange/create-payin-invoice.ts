import { eq } from 'drizzle-orm';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { exchangeOrders } from '@/db/schema';
import type { Db } from '@/lib/db';
import { claimDepositAddress } from '@/lib/chain/claim-deposit-address';
import type { Network } from '@/lib/chain/network';
import { checkoutPath, newClaimToken } from '@/lib/invoices/claim-token';
import { insertInvoice } from '@/lib/invoices/insert-invoice';
import { invoiceRow, type InvoicePricing } from '@/lib/invoices/invoice-row';
import type { CreateInvoiceInput } from '@/lib/invoices/schemas';
import { invoiceView } from '@/lib/invoices/view';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { createRecordedOrder } from './create-recorded-order';
import { requireExchange } from './get-exchange';
import { checkPayinPair } from './payin-pair';

/**
 * POST /v1/invoices with payinCurrency. The invoice's own deposit address
 * (the same on every EVM network) is claimed first and given to the exchange
 * as toAddress of a fixed-rate order for exactly `amount` of the invoice's
 * rail (its token on its network, by the exchange's code); only when the order exists is
 * the invoice inserted (with invoice.created and the order marked open, one
 * transaction), so a refused order leaves no invoice. The customer pays the
 * order's deposit address; what the exchange sends is then detected by the
 * rail's chain watcher like any payment. The invoice expires with the order
 * (the tracker keeps it open while the exchange converts).
 */
export async function createPayinInvoice(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chain' | 'chainId' | 'confirmations'> & { depositMnemonic: string },
  input: CreateInvoiceInput & { payinCurrency: string },
  pricing: InvoicePricing | null = null,
) {
  const client = requireExchange(db, owner.mode, owner.tenantId);
  const rail = { chain: input.chain, token: input.token };
  const { params } = await checkPayinPair(client, owner.mode, input.payinCurrency, input.amount, rail);
  const { index, address } = await claimDepositAddress(db, network.chain, network.depositMnemonic);
  const { row: exo, order } = await createRecordedOrder(db, client, owner, 'payin', { ...params, toAddress: formatAddress(address) });
  const now = new Date();
  const requested = new Date(now.getTime() + input.expiresInMinutes * 60_000);
  const expiresAt = order.time?.expiration ? new Date(order.time.expiration * 1000) : requested;
  // The invoice row as POST /v1/invoices builds it, with the claimed address, the order's fields and the payer's claim token.
  const claim = newClaimToken();
  const invoice = invoiceRow(
    owner,
    network,
    input,
    now,
    {
      depositAddress: address.toLowerCase(),
      addressIndex: index,
      expiresAt,
      payinCurrency: order.from.code,
      payinAmount: new Decimal(order.from.amount).toFixed(),
      payinAddress: order.from.address,
      payinTag: order.from.tag ?? null,
      payinStatus: order.status,
      claimTokenHash: claim.hash,
    },
    pricing,
  );
  const id = invoice.id;
  return db
    .transaction(async (tx) => {
      const row = await insertInvoice(tx, invoice);
      await tx
        .update(exchangeOrders)
        .set({
          state: 'open',
          invoiceId: id,
          priority: 1,
          nextCheckAt: new Date(Math.min(expiresAt.getTime() + 2000, now.getTime() + 10 * 60_000)),
          updatedAt: now,
        })
        .where(eq(exchangeOrders.id, exo.id));
      return { ...invoiceView(row, []), checkoutUrl: checkoutPath(id, claim.token) };
    })
    .catch(async (err) => {
      // Created but never shown to anyone: it expires at the exchange unpaid.
      await db
        .update(exchangeOrders)
        .set({ state: 'abandoned', error: String((err as Error).message).slice(0, 300) })
        .where(eq(exchangeOrders.id, exo.id));
      throw err;
    });
}
