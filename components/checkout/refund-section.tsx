'use client';

import { useActionState } from 'react';
import { RefundAddressForm } from './refund-address-form';
import { proposeRefundAddressAction, type RefundAddressState } from './actions';
import type { PublicCheckoutRefund as CheckoutRefund } from '@/lib/checkout/present-checkout';
import type { ChainFamily } from '@/lib/config/rails';

/** An address as the server sent it: in full to the payer's page (claim token), masked (`0x12ab…89cd`) to anyone else. */
const Addr = ({ a }: { a: string }) => <span className="break-all font-mono">{a}</span>;

/** What became of the payer's latest proposal and of the refunds sent. */
function RefundProgress({ refund, tenantName, unit }: { refund: CheckoutRefund; tenantName: string; unit: string }) {
  const r = refund.request;
  const last = refund.refunds.at(-1);
  if (last) {
    const sent = last.status === 'COMPLETED';
    return (
      <p data-testid="refund-progress" data-refund-status={last.status}>
        {sent ? (
          <>
            Refund of{' '}
            <strong className="tabular-nums">
              {last.amount} {unit}
            </strong>{' '}
            sent to <Addr a={last.to} />
            {last.txHash ? <span className="block break-all font-mono text-xs text-slate-500">Transaction {last.txHash}</span> : null}
          </>
        ) : last.status === 'FAILED' ? (
          <>The refund could not be sent; {tenantName} has been told and will send it again.</>
        ) : (
          <>
            Refund of{' '}
            <strong className="tabular-nums">
              {last.amount} {unit}
            </strong>{' '}
            approved and on its way to <Addr a={last.to} />.
          </>
        )}
      </p>
    );
  }
  if (r?.status === 'PENDING') {
    return (
      <p data-testid="refund-progress" data-refund-status="REQUESTED">
        Refund requested to <Addr a={r.destinationAddress} />: waiting for {tenantName} to send it.
      </p>
    );
  }
  if (r?.status === 'DECLINED') {
    return (
      <p data-testid="refund-progress" data-refund-status="DECLINED">
        {tenantName} declined the refund to <Addr a={r.destinationAddress} />
        {r.declineReason ? `: “${r.declineReason}”` : '.'}
      </p>
    );
  }
  return null;
}

/** What sending it back costs the payer, shown before they confirm (issue 30 §2). */
function RefundNetworkFee({ refund, tenantName }: { refund: CheckoutRefund; tenantName: string }) {
  const unit = refund.feeToken;
  const free = /^0(\.0*)?$/.test(refund.networkFee);
  return (
    <p className="text-xs text-slate-600" data-testid="refund-network-fee">
      {free ? (
        <>No fee is taken: you receive the full amount.</>
      ) : refund.networkFeePaidBy === 'payer' ? (
        <>
          Network fee{' '}
          <span className="tabular-nums">
            {refund.networkFee} {unit}
          </span>
          , taken from the refund: you receive{' '}
          <strong className="tabular-nums">
            {refund.youReceive} {unit}
          </strong>
          .
        </>
      ) : (
        <>{tenantName} pays the network fee: you receive the full amount.</>
      )}
    </p>
  );
}

/**
 * The payer's way to get back a late, partial or excess payment: they give
 * their address, the merchant approves (or their auto-refund policy sends an
 * overpayment). Posts without JavaScript too (a server action form). The form
 * is there only on the payer's own page (`claim`: the claim token of its URL,
 * posted in a hidden field); texts name the invoice's own token and network.
 */
export function RefundSection({
  invoiceId,
  refund,
  tenantName,
  token,
  network,
  addressFamily,
  claim,
}: {
  invoiceId: string;
  refund: CheckoutRefund;
  tenantName: string;
  /** The invoice's token (USDT, USDC): the refund is paid in it. */
  token: string;
  /** The invoice's network as wallets name it ("Ethereum (ERC-20)"): the refund is paid there. */
  network: string;
  /** The refund network's address form: the field asks for `0x…` or `T…`. */
  addressFamily: ChainFamily;
  claim?: string;
}) {
  const [state, action, pending] = useActionState<RefundAddressState, FormData>(proposeRefundAddressAction, {});
  const replacing = refund.request?.status === 'PENDING';
  return (
    <section
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
      aria-label="Refund"
      data-testid="refund"
    >
      <h2 className="text-base font-semibold text-slate-900">Get your money back</h2>
      <RefundProgress refund={refund} tenantName={tenantName} unit={token} />
      {refund.canPropose && claim ? (
        <RefundAddressForm
          action={action}
          pending={pending}
          error={state.error}
          inputId="refund-address"
          addressFamily={addressFamily}
          label={`Your ${token} address on ${network}`}
          hidden={{ invoiceId, claim }}
          submitLabel={replacing ? 'Use this address instead' : 'Request refund'}
          intro={
            <>
              <p>
                <strong className="tabular-nums" data-testid="claimable">
                  {refund.claimable} {token}
                </strong>{' '}
                of your payment can be returned to you. {replacing ? 'To use another address, enter it below.' : 'Enter the address to send it to.'}
              </p>
              <RefundNetworkFee refund={refund} tenantName={tenantName} />
            </>
          }
          note={
            <>
              Use a wallet you control: an exchange deposit address may not credit a refund. {tenantName} reviews the request
              {refund.proposalsLeft <= 2 ? ` (${refund.proposalsLeft} change${refund.proposalsLeft === 1 ? '' : 's'} of address left)` : ''}.
            </>
          }
        />
      ) : !claim && /[1-9]/.test(refund.claimable) ? (
        <p className="text-xs text-slate-600" data-testid="refund-claim-needed">
          <strong className="tabular-nums">
            {refund.claimable} {token}
          </strong>{' '}
          of this payment can be returned. To give your address, open this page from the link you got when you started paying, or ask {tenantName}.
        </p>
      ) : null}
    </section>
  );
}
