import { sql } from 'drizzle-orm';
import { createWalletClient, erc20Abi, getAddress, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { EvmNetwork } from '@/lib/chain/network';
import { rowsOf, type Db } from '@/lib/db';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from './anvil';
import { call } from './app';
import { createTestTenant } from './fixtures';
import { withTestChain } from './test-chain';

export interface TwoRails {
  bsc: AnvilChain;
  eth: AnvilChain;
  bscNet: EvmNetwork;
  ethNet: EvmNetwork;
}

/**
 * Two local chains side by side, as the test mode's BSC (USDT and USDC at 18
 * decimals, as on BSC) and Ethereum (both at 6 decimals). Call at a test
 * file's top level; `ready` runs once both are up.
 */
export function withTwoRails(ready: (r: TwoRails) => void) {
  const r = {} as TwoRails;
  withTestChain(
    (c) => {
      r.bsc = c;
      r.bscNet = c.network('test');
      if (r.eth) ready(r);
    },
    {
      tokens: [
        { asset: 'USDT', decimals: 18 },
        { asset: 'USDC', decimals: 18 },
      ],
    },
  );
  withTestChain(
    (c) => {
      r.eth = c;
      r.ethNet = c.network('test');
      if (r.bsc) ready(r);
    },
    {
      chain: 'ETHEREUM',
      tokens: [
        { asset: 'USDT', decimals: 6 },
        { asset: 'USDC', decimals: 6 },
      ],
    },
  );
}

const retry = { maxAttempts: 2, backoffMs: 0 };

/** A tenant (1 % invoice fee) and `jobs()`, one pass of both networks' invoice jobs. */
export async function railsTenant(r: TwoRails) {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  const jobs = async () => {
    await runInvoiceJobs(t.db, r.bscNet, { retry });
    await runInvoiceJobs(t.db, r.ethNet, { retry });
  };
  await jobs(); // each watcher's cursor starts below its head
  return { ...t, jobs };
}

export async function createInvoice(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/invoices', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function invoiceDetail(key: string, id: string) {
  const res = await call('GET', `/v1/invoices/${id}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function balanceOf(key: string, currency?: string) {
  const res = await call('GET', `/v1/withdrawals/balance${currency ? `?currency=${currency}` : ''}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A customer's transfer from the faucet of `chain`, in `asset`, at that token's decimals. */
export async function sendToken(chain: AnvilChain, asset: 'USDT' | 'USDC', to: string, amount: string) {
  const token = chain.tokens.find((t) => t.asset === asset)!;
  const hash = await chain.faucet.writeContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [getAddress(to), parseUnits(amount, token.decimals)],
  });
  await chain.client.waitForTransactionReceipt({ hash });
  return hash;
}

/**
 * A transfer from a customer's own wallet (the chain's spare key, freshly funded), not from the
 * faucet: a refund may go back to it (the faucet is one of the gateway's own test wallets).
 */
export async function sendFromCustomer(chain: AnvilChain, asset: 'USDT' | 'USDC', to: string, amount: string) {
  const token = chain.tokens.find((t) => t.asset === asset)!;
  const account = privateKeyToAccount(chain.keys.other);
  await chain.mint(account.address, amount, token.address);
  const wallet = createWalletClient({ chain: chain.client.chain, account, transport: http(chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: token.address,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [getAddress(to), parseUnits(amount, token.decimals)],
  });
  await chain.client.waitForTransactionReceipt({ hash });
  return account.address;
}

/** Per asset: the ledger's sum beside the stored balance (they must be equal). */
export async function ledgerSums(db: Db, tenantId: string) {
  return rowsOf<{ currency: string; ledger: string; balance: string }>(
    await db.execute(sql`
      select b.currency, coalesce(sum(l.amount), 0)::text as ledger, b.available::text as balance
        from balances b left join ledger_entries l on l.tenant_id = b.tenant_id and l.mode = b.mode and l.currency = b.currency
       where b.tenant_id = ${tenantId} and b.mode = 'test' group by b.currency, b.available`),
  );
}
