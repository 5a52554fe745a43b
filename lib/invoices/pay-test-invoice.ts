import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { onFamily, requireRail, type PerFamily, type ReadyNetwork } from '@/lib/chain/network';
import { getInvoiceOrThrow } from './get-invoice-or-throw';
import { formatAmount } from './amount';
import { payEvmTestInvoice } from './pay-evm-test-invoice';
import { paySolanaTestInvoice } from './pay-solana-test-invoice';
import { payTronTestInvoice } from './pay-tron-test-invoice';

/** Each family's faucet payment (lazy bodies, like every family table). */
const PAY: PerFamily<
  ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'faucetKey'>,
  [depositAddress: string, amount: string],
  ReturnType<typeof payEvmTestInvoice>
> = {
  evm: (...a) => payEvmTestInvoice(...a),
  tron: (...a) => payTronTestInvoice(...a),
  solana: (...a) => paySolanaTestInvoice(...a),
};

/**
 * POST /v1/test-helpers/invoices/:id/pay: a real test-USDT transfer from the
 * faucet to the invoice's deposit address on the test chain; the watcher finds
 * it like any customer payment. Answers once the transaction is broadcast. Sent by the rail's family:
 * an ERC-20 transfer (pay-evm-test-invoice.ts), a TronWeb-signed TRC-20 one (pay-tron-test-invoice.ts) or an SPL
 * `transferChecked` from the faucet wallet (pay-solana-test-invoice.ts).
 */
export async function payTestInvoice(db: Db, where: { id: string; tenantId: string }, amount: string) {
  const invoice = await getInvoiceOrThrow(db, { ...where, mode: 'test' });
  // On the invoice's own rail: its network and its token's decimals.
  const net = requireRail('test', { chain: invoice.chain, token: invoice.token }, ['rpcUrl', 'tokenAddress', 'faucetKey']);
  if (invoice.chainId !== net.chainId) {
    // Created on an earlier test chain (e.g. before a dev restart): nothing would ever see the payment.
    throw new ApiError(
      'invalid_state',
      `This invoice belongs to chain ${invoice.chainId}; the test ${net.chain} network is now chain ${net.chainId}.`,
    );
  }
  const paid = await onFamily(net, PAY, invoice.depositAddress, amount);
  return { invoiceId: invoice.id, ...paid, amount: formatAmount(amount) };
}
