import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRailsAtStart } from '@/lib/chain/check-rails-at-start';
import { getNetwork, getNetworks, onFamily, tokensOf } from '@/lib/chain/network';
import { ALL_RAILS as EVERY_RAIL, CHAIN_SPECS, DEFAULT_RAIL, EVM_CHAINS as CHAINS, type ChainKey } from '@/lib/config/rails';

// The EVM rails, each on an anvil chain; TRON's rail is tested on its stand-in (lib/testing/tron-rail.ts).
const ALL_RAILS = EVERY_RAIL.filter((r) => CHAINS.includes(r.chain));
import { localChainEnv } from '@/lib/dev/local-chain-env';
import { resetEnvCache } from '@/lib/env';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { productionEnv } from '@/lib/testing/production-env';
import { createInvoice, invoiceDetail, sendFromCustomer } from '@/lib/testing/two-rails';

/*
 * Every rail configured through the environment, as `npm run dev` sets it (lib/dev/local-chain-env.ts, the
 * function scripts/dev.ts uses) and as docs/production.md lists it: no setNetworkOverride. The suites that
 * inject networks missed that BSC USDC read TEST_USDC_ADDRESS, which the environment parser drops: the rail
 * was never enabled, and USDC paid on BSC to a USDT invoice was neither counted nor held.
 */
const railName = (r: { chain: string; token: string }) => `${r.chain}:${r.token}`;
const EXTRA_RAILS = ALL_RAILS.filter((r) => railName(r) !== railName(DEFAULT_RAIL))
  .map(railName)
  .join(',');
const saved = { ...process.env };

function setEnv(vars: Record<string, string>) {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved, vars);
  resetEnvCache();
}

afterAll(() => setEnv({}));

describe('every rail configured as npm run dev does', () => {
  const chains: { key: ChainKey; chain: AnvilChain }[] = [];
  beforeAll(async () => {
    for (const key of CHAINS) {
      const tokens = ALL_RAILS.filter((r) => r.chain === key).map((r) => ({ asset: r.token, decimals: CHAIN_SPECS[key].tokens[r.token]!.decimals }));
      chains.push({ key, chain: await startAnvil({ chain: key, tokens }) });
    }
    setEnv({ RAILS: EXTRA_RAILS, ...localChainEnv('test', chains) });
  });
  afterAll(async () => {
    for (const { chain } of chains) await chain.stop();
  });

  it('enables every rail: each network reads each of its tokens, and GET /v1/tenants/me lists them all', async () => {
    const enabled = getNetworks('test').flatMap((n) => tokensOf(n).map((t) => `${n.chain}:${t.asset}`));
    expect(enabled.sort()).toEqual(ALL_RAILS.map(railName).sort());
    // Each EVM network's contracts, from <MODE>_<CHAIN>_DISPERSE_ADDRESS and _COLLECTOR_ADDRESS (BSC's too, read unprefixed otherwise).
    for (const { key, chain } of chains) {
      const contracts = onFamily(getNetwork('test', key), { evm: (n) => [n.disperseAddress, n.collectorAddress], tron: () => [], solana: () => [] });
      expect(contracts, key).toEqual([chain.disperse, chain.collector]);
    }
    // The local stack's configuration passes the rail check that boot() runs (chain ids, decimals, symbols).
    expect(await checkRailsAtStart({ production: true })).toEqual([]);
    const t = await createTestTenant();
    const me = await call('GET', '/v1/tenants/me', { key: t.test });
    expect(me.status, me.text).toBe(200);
    expect([...me.body.rails].sort()).toEqual(ALL_RAILS.map(railName).sort());
    for (const r of ALL_RAILS) {
      const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '1.00', chain: r.chain, token: r.token } });
      expect(inv.status, `${railName(r)}: ${inv.text}`).toBe(201);
    }
  });

  it('2.00 USDC paid on BSC to a USDT invoice is held for the merchant, never lost', async () => {
    const t = await createTestTenant();
    const bsc = chains.find((c) => c.key === 'BSC')!.chain;
    const net = getNetwork('test', 'BSC');
    await runInvoiceJobs(t.db, net);
    const inv = await createInvoice(t.test, { amount: '10.00' });
    await sendFromCustomer(bsc, 'USDC', inv.depositAddress, '2.00');
    await bsc.mine(net.confirmations);
    await runInvoiceJobs(t.db, net);
    const d = await invoiceDetail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(d.heldPayments).toMatchObject([{ chain: 'BSC', token: 'USDC', mismatch: 'token', status: 'held', amount: '2.00' }]);
  });
});

describe('every rail configured as docs/production.md lists it', () => {
  it('a production test network enables BSC USDC from TEST_BSC_USDC_ADDRESS, and each network has its own wallets', () => {
    const prod = productionEnv();
    const vars: Record<string, string> = {
      ...prod,
      RAILS: EXTRA_RAILS,
      TEST_RPC_URL: 'http://127.0.0.1:2',
      TEST_CHAIN_ID: '97',
      TEST_TOKEN_ADDRESS: `0x${'51'.repeat(20)}`,
      TEST_BSC_USDC_ADDRESS: `0x${'52'.repeat(20)}`,
      TEST_DEPOSIT_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      TEST_GAS_WALLET_PRIVATE_KEY: generatePrivateKey(),
      TEST_FEE_WALLET_ADDRESS: privateKeyToAddress(generatePrivateKey()),
      TEST_HOT_WALLET_PRIVATE_KEY: generatePrivateKey(),
    };
    CHAINS.filter((c) => c !== 'BSC').forEach((c, i) => {
      for (const p of ['LIVE', 'TEST'] as const) {
        vars[`${p}_${c}_RPC_URL`] = `https://${c.toLowerCase()}-${p.toLowerCase()}.example`;
        vars[`${p}_${c}_GAS_WALLET_PRIVATE_KEY`] = generatePrivateKey();
        vars[`${p}_${c}_HOT_WALLET_PRIVATE_KEY`] = generatePrivateKey();
      }
      for (const token of Object.keys(CHAIN_SPECS[c].tokens))
        vars[`TEST_${c}_${token}_ADDRESS`] = `0x${String(60 + i).repeat(19)}${token === 'USDT' ? '0a' : '0c'}`;
    });
    setEnv(vars);
    for (const mode of ['live', 'test'] as const) {
      const enabled = getNetworks(mode).flatMap((n) => tokensOf(n).map((t) => `${n.chain}:${t.asset}`));
      expect(enabled.sort(), mode).toEqual(ALL_RAILS.map(railName).sort());
    }
    expect(tokensOf(getNetwork('test', 'BSC')).find((t) => t.asset === 'USDC')?.address).toBe(vars.TEST_BSC_USDC_ADDRESS);
    expect(getNetwork('live', 'POLYGON').hotWalletKey).toBe(vars.LIVE_POLYGON_HOT_WALLET_PRIVATE_KEY);
  });
});
