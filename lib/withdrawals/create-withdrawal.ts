import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { getNetwork } from '@/lib/chain/network';
import { insertRow } from '@/lib/db/insert-row';
import { newId } from '@/lib/ids';
import { formatAmount } from '@/lib/money';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import type { Mode } from '@/lib/tenants/mode';
import { validateEndpointUrl } from '@/lib/webhooks/validate-endpoint-url';
import { parseWithdrawalAmount, withdrawalFee } from './amounts';
import { emitWithdrawalEvent } from './emit-withdrawal-event';
import type { CreateWithdrawalInput } from './schemas';
import { parseDestination } from './parse-destination';
import { validateDestination } from './validate-destination';
import { withdrawalView } from './view';

/**
 * Creates an internal USDT withdrawal. In one transaction: insert the PENDING
 * withdrawal, write withdrawal.created and the audit row, then debit amount +
 * fee through the ledger. The debit comes last: its conditional UPDATE locks
 * the balance row, so concurrent requests of one tenant serialise only on the
 * debit and the commit, and the balance never goes negative (an overdraft
 * rolls the whole transaction back: no row, no event).
 */
export async function createWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  input: CreateWithdrawalInput,
  actor?: AuditActor,
) {
  const amount = parseWithdrawalAmount(input.amount);
  const network = getNetwork(owner.mode);
  // Malformed destinations are refused before the transaction; the deposit-address check runs inside it.
  const destination = parseDestination(network, input.destinationAddress);
  // postBackUrl follows the spec: HTTPS only, never a private or local host.
  const postBackUrl = input.postBackUrl === undefined ? null : validateEndpointUrl(input.postBackUrl, 'live', 'postBackUrl');
  const fee = withdrawalFee(amount, owner.tenant.withdrawalFeeRate);
  const total = amount.plus(fee);
  const id = newId('withdrawal');

  return db.transaction(async (tx) => {
    // The deposit-address check and the insert go out in one write (one round trip); if the check refuses,
    // the transaction rolls the insert back.
    const [, row] = await Promise.all([
      validateDestination(tx, network, destination),
      insertRow(
        tx,
        withdrawals,
        {
          id,
          tenantId: owner.tenantId,
          mode: owner.mode,
          kind: 'internal',
          amount: amount.toFixed(),
          feeAmount: fee.toFixed(),
          netAmount: amount.toFixed(),
          destinationAddress: destination,
          chainId: network.chainId,
          postBackUrl,
        },
        'all',
      ),
    ]);
    const view = withdrawalView(row);
    const common = { tenantId: owner.tenantId, mode: owner.mode, referenceType: 'withdrawal', referenceId: id };
    // Issued together, so postgres.js sends them in one write (one round trip); the server runs them in
    // order, so the debit, whose row lock serialises the tenant's withdrawals, still comes last.
    await Promise.all([
      emitWithdrawalEvent(tx, row, 'withdrawal.created'),
      actor ? recordAudit(tx, actor, merchantAuditEntry(owner, { action: 'withdrawal.created', withdrawal: view })) : undefined,
      postLedgerEntries(
        tx,
        [
          { ...common, amount: amount.neg().toFixed(), kind: 'withdrawal' },
          ...(fee.gt(0) ? [{ ...common, amount: fee.neg().toFixed(), kind: 'withdrawal_fee' }] : []),
        ],
        {
          insufficient: (available) =>
            new ApiError(
              'insufficient_balance',
              `Insufficient balance: available ${formatAmount(available)} USDT, amount + fee needed ${formatAmount(total)} USDT.`,
              [{ path: 'amount', message: `amount ${formatAmount(amount)} + fee ${formatAmount(fee)} exceeds the available ${formatAmount(available)}` }],
            ),
        },
      ),
    ]);
    return view;
  });
}
