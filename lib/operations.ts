import type { Operation } from '@/lib/api/operation';
import * as apiKeys from '@/lib/api-keys/operations';
import * as tenants from '@/lib/tenants/operations';
import * as webhooks from '@/lib/webhooks/operations';
import * as invoices from '@/lib/invoices/operations';
import * as withdrawals from '@/lib/withdrawals/operations';
import * as refunds from '@/lib/refunds/operations';
import * as refundRequests from '@/lib/refunds/requests/operations';
import * as refundClaims from '@/lib/refunds/claims/operations';
import * as storefront from '@/lib/storefront/operations';
import * as paymentLinks from '@/lib/payment-links/operations';
import * as exchange from '@/lib/exchange/operations';
import * as withdrawalControls from '@/lib/withdrawal-controls/operations';
import { payinCurrenciesOp, payinQuoteOp } from '@/lib/exchange/payin-operations';
import * as statements from '@/lib/statements/operations';
import * as payouts from '@/lib/payouts/operations';
import * as subscriptions from '@/lib/subscriptions/operations';

/**
 * Every /v1 operation: the OpenAPI document and the generated auth tests iterate this list.
 * A composition point at the top of lib/ (it imports every domain), so lib/api stays below the domains.
 */
export const OPERATIONS: Operation[] = [
  ...Object.values(tenants),
  ...Object.values(apiKeys),
  ...Object.values(invoices),
  ...Object.values(refunds),
  ...Object.values(refundRequests),
  ...Object.values(refundClaims),
  ...Object.values(webhooks),
  ...Object.values(withdrawals),
  ...Object.values(statements),
  ...Object.values(payouts),
  withdrawalControls.getWithdrawalControlsOp,
  ...Object.values(paymentLinks),
  ...Object.values(subscriptions),
  ...Object.values(storefront),
  ...Object.values(exchange),
  payinCurrenciesOp,
  payinQuoteOp,
] as Operation[];
