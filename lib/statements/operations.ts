import { defineOperation } from '@/lib/api/operation';
import { fileBody } from '@/lib/api/file-body';
import { BalanceTransactionList, ListBalanceTransactionsQuery, StatementQuery } from './schemas';

const tag = 'Balance transactions';

export const listBalanceTransactionsOp = defineOperation({
  id: 'listBalanceTransactions',
  method: 'GET',
  path: '/v1/balance-transactions',
  scope: 'withdrawals:read',
  tag,
  summary: 'List balance transactions, newest first',
  description:
    "Every ledger entry of the key's tenant and mode (Stripe's balance transactions are the model): payment credits (gross `amount`, the invoice `fee`, `net` credited), withdrawals and their fees, failed withdrawals returned, refunds to payers, exchange withdrawals, network fees and adjustments. `balanceAfter` is the asset's balance right after the entry; `fiat` gives a fiat-priced invoice's credit in its currency at the invoice's locked rate. Types added later appear as `adjustment` until named.",
  query: ListBalanceTransactionsQuery,
  response: BalanceTransactionList,
});

export const getStatementOp = defineOperation({
  id: 'getBalanceStatement',
  method: 'GET',
  path: '/v1/balance-transactions/statement',
  scope: 'withdrawals:read',
  tag,
  summary: 'Statement of one balance for a period (CSV)',
  description:
    "CSV (RFC 4180, CRLF) of one asset's balance for [from, to): a header line, an `opening_balance` row (every entry before `from`), every entry in time order with its running `balance`, and a `closing_balance` row; opening + the entries' `net` = closing, to the last decimal. Streamed: any period, however many entries. Text cells that a spreadsheet would take for a formula are prefixed with '.",
  query: StatementQuery,
  response: fileBody,
  produces: 'text/csv',
});
