import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Network } from '@/lib/chain/network';
import { CHAIN_SPECS, EVM_CHAINS as CHAINS, type Asset, type ChainKey } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import type { AnvilChain } from '@/lib/testing/anvil';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { balanceOf, createInvoice, invoiceDetail, ledgerSums, sendToken } from '@/lib/testing/two-rails';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Every rail of the table (lib/config/rails.ts) on a local chain of its own, its tokens at their
 * mainnet decimals (18 on BSC, 6 elsewhere): an invoice on each is paid, swept on its own network
 * and credited to its asset's balance; per network, what reached the hot and fee wallets is
 * exactly what the payer sent, in that network's base units.
 */
const chains = new Map<ChainKey, { chain: AnvilChain; net: Network }>();
for (const key of CHAINS) {
  const tokens = (Object.entries(CHAIN_SPECS[key].tokens) as [Asset, { decimals: number }][]).map(([asset, t]) => ({ asset, decimals: t.decimals }));
  withTestChain((c) => void chains.set(key, { chain: c, net: c.network('test') }), { chain: key, tokens });
}

const rails = CHAINS.flatMap((chain) => (Object.keys(CHAIN_SPECS[chain].tokens) as Asset[]).map((token) => ({ chain, token })));

describe('every rail', () => {
  it('the table holds the nine rails of issue 18', () => {
    expect(rails.map((r) => `${r.chain}:${r.token}`).sort()).toEqual([
      'ARBITRUM:USDC',
      'ARBITRUM:USDT',
      'BASE:USDC',
      'BSC:USDC',
      'BSC:USDT',
      'ETHEREUM:USDC',
      'ETHEREUM:USDT',
      'POLYGON:USDC',
      'POLYGON:USDT',
    ]);
  });

  it('an invoice on each rail is paid, swept on its own network and credited to its asset; money is conserved per network', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = async () => {
      for (const { net } of chains.values()) await runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    };
    await jobs();
    const before = new Map<string, bigint>();
    const wallets = async (chain: AnvilChain, token: Asset) =>
      (await chain.tokenBalance(chain.addresses.hot, chain.tokenOf(token))) + (await chain.tokenBalance(chain.addresses.fee, chain.tokenOf(token)));
    const invoices: { id: string; chain: ChainKey; token: Asset; depositAddress: string }[] = [];
    for (const [i, r] of rails.entries()) {
      const { chain } = chains.get(r.chain)!;
      before.set(`${r.chain}:${r.token}`, await wallets(chain, r.token));
      const inv = await createInvoice(t.test, { amount: `${10 + i}.00`, chain: r.chain, token: r.token });
      expect(inv).toMatchObject({ chain: r.chain, token: r.token, status: 'PENDING' });
      await sendToken(chain, r.token, inv.depositAddress, `${10 + i}`);
      invoices.push({ ...inv, chain: r.chain, token: r.token });
    }
    for (const { chain } of chains.values()) await chain.mine(40);
    await jobs();
    await jobs();
    const credited: Record<string, Decimal> = {};
    for (const [i, inv] of invoices.entries()) {
      const d = await invoiceDetail(t.test, inv.id);
      const paid = new Decimal(10 + i);
      expect(d, `${inv.chain}:${inv.token}`).toMatchObject({ status: 'PAID_OUT', amountCredited: paid.mul('0.99').toFixed(2) });
      credited[inv.token] = (credited[inv.token] ?? new Decimal(0)).add(paid.mul('0.99'));
      const { chain } = chains.get(inv.chain)!;
      const decimals = CHAIN_SPECS[inv.chain].tokens[inv.token]!.decimals;
      // All of it left the deposit address, and all of it reached our wallets on that network: nothing lost, nothing made up.
      expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(inv.depositAddress), chain.tokenOf(inv.token))).toBe(0n);
      expect((await wallets(chain, inv.token)) - before.get(`${inv.chain}:${inv.token}`)!, `${inv.chain}:${inv.token}`).toBe(
        parseUnits(String(10 + i), decimals),
      );
    }
    for (const [asset, sum] of Object.entries(credited)) expect((await balanceOf(t.test, asset)).available).toBe(sum.toFixed(2));
    for (const r of await ledgerSums(t.db, t.tenant.id)) expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
  });
});
