import { erc20Abi, getAddress, parseUnits } from 'viem';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import { familyOf } from '@/lib/config/rails';
import { walletClient } from '@/lib/chain/wallet-client';
import { getInvoiceOrThrow } from './get-invoice-or-throw';
import { formatAmount } from './amount';
import { payTronTestInvoice } from './pay-tron-test-invoice';

// The faucet sends one transaction at a time per process so concurrent calls never pick the same nonce.
let queue: Promise<unknown> = Promise.resolve();

/**
 * POST /v1/test-helpers/invoices/:id/pay: a real test-USDT transfer from the
 * faucet to the invoice's deposit address on the test chain; the watcher finds
 * it like any customer payment. Answers once the transaction is broadcast. On TRON a TronWeb-signed
 * TRC-20 transfer (pay-tron-test-invoice.ts).
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
  if (familyOf(net.chain) === 'tron') {
    const paid = await payTronTestInvoice(net, invoice.depositAddress, amount);
    return { invoiceId: invoice.id, ...paid, amount: formatAmount(amount) };
  }
  const faucet = walletClient(net.rpcUrl, net.chainId, net.faucetKey);
  const to = getAddress(invoice.depositAddress);
  const send = () =>
    faucet.writeContract({ address: net.tokenAddress, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits(amount, net.decimals)] });
  const result = queue.then(send, send);
  queue = result.catch(() => {});
  const txHash = await result;
  return { invoiceId: invoice.id, txHash, from: faucet.account.address, to, amount: formatAmount(amount) };
}
