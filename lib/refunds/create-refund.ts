import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import type { AuditActor } from '@/lib/audit/record-audit';
import { requireRail } from '@/lib/chain/network';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { parseWithdrawalAmount } from '@/lib/withdrawals/amounts';
import { createWithdrawal, type PrepareWithdrawalControls } from '@/lib/withdrawals/create-withdrawal';
import { parseAnyAddress, parseDestination } from '@/lib/destinations/check-destination';
import { refundPricing } from './refund-pricing';
import { givebackTerms } from './giveback-terms';
import type { CreateRefundInput } from './schemas';

/**
 * Gives back the token an invoice received, to an address: a withdrawal (the same
 * crash-safe sending lane, controls, events and audit row) marked with the
 * invoice, priced by refundPricing (no percentage fee; the invoice fee on money
 * the merchant never kept returned with it; the network fee). The invoice
 * row is locked for the transaction, so concurrent refunds of one invoice
 * queue and together never exceed what it settled.
 */
export async function createRefund(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  invoiceId: string,
  input: CreateRefundInput,
  actor: AuditActor | undefined,
  prepareControls: PrepareWithdrawalControls,
) {
  // Bad input is a 400 whatever the invoice's state.
  parseAnyAddress(input.destinationAddress, 'destinationAddress');
  if (input.amount !== undefined) parseWithdrawalAmount(input.amount);
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: invoiceId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    // Given back on the invoice's rail, from its token's balance: never to one of our addresses on that network.
    const rail = { chain: invoice.chain, token: invoice.token };
    parseDestination(requireRail(owner.mode, rail, []), input.destinationAddress);
    const terms = await givebackTerms(tx, invoice);
    if (terms.refundable.lt('0.01')) {
      throw new ApiError(
        'nothing_to_refund',
        terms.settled.isZero()
          ? 'This invoice has no settled payment to refund yet (payments are refundable once confirmed and credited).'
          : `Everything this invoice settled (${formatAmount(terms.settled)} ${invoice.token}) is already refunded.`,
      );
    }
    let amount = input.amount;
    if (amount === undefined) {
      if (terms.byDefault.lt('0.01')) {
        throw new ApiError('nothing_to_refund', 'This invoice was paid without an overpayment: give `amount` to refund part or all of it.');
      }
      amount = terms.byDefault.toFixed(2);
    }
    // What the merchant never kept costs it nothing; more than refundable, below the network's minimum or not
    // covering its fee is refused here, with the words the dashboard's form shows before (price-refund.ts).
    const pricing = await refundPricing(tx, owner, invoice, new Decimal(amount), terms);
    return createWithdrawal(tx, owner, { amount, destinationAddress: input.destinationAddress, ...rail }, actor, prepareControls, pricing.options);
  });
}
