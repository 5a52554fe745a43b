import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { resetEnvCache } from '@/lib/env';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withOracleChain } from '@/lib/testing/sanctions-oracle/with-oracle-chain';
import { payFromCustomer, withdrawOn } from '@/lib/testing/screening-chain';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { freshTronAddress } from '@/lib/testing/tron-lane-helpers';
import { balanceOf } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import { screenWithAdapters } from '../screen-with-adapters';
import { configuredAdapters } from './adapter-config';

/*
 * Issue 46 §1, the Chainalysis sanctions oracle (`isSanctioned(address)`, one contract address on several EVM
 * networks), against a stand-in of the same ABI on anvil, read through the live network's RPC: listed stops the
 * address like the offline list; not listed passes; an RPC that does not answer, a contract that reverts and an
 * address with no contract are never "clean" (a destination is a 503 with nothing written, a payer is held).
 */
const eth = withOracleChain();
const { configure } = eth;
/** The live ETHEREUM network's RPC on a port nobody listens on. */
const rpcDown = () => eth.liveRpc();
const customer = (): Address => privateKeyToAccount(eth.chain.keys.other).address;

describe('the sanctions oracle adapter', () => {
  it('is off by default; configured: listed is listed, not listed is clean, a TRON address is not asked', async () => {
    expect(configuredAdapters().list.map((a) => a.name)).not.toContain('sanctions_oracle');
    configure();
    expect(configuredAdapters().list.map((a) => a.name)).toEqual(['sanctions_oracle']);
    const a = freshAddress();
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'clean', by: null });
    await eth.oracle.list(a);
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'listed', by: 'sanctions_oracle' });
    // No networks named: every live EVM network with an RPC (here the ETHEREUM one).
    delete process.env.SCREENING_ORACLE_CHAINS;
    resetEnvCache();
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'listed', by: 'sanctions_oracle' });
    await eth.oracle.unlist(a);
    expect((await screenWithAdapters('evm', a)).outcome).toBe('clean');
    // EVM addresses only: a TRON address is not asked (here it would fail, the RPC being down).
    await rpcDown();
    expect(await screenWithAdapters('tron', freshTronAddress())).toMatchObject({ outcome: 'clean', by: null });
  });

  it('an RPC that does not answer, a contract that reverts, and an address without code are errors, never clean', async () => {
    const a = freshAddress();
    configure(eth.chain.token); // the USDT stand-in: no isSanctioned, no fallback, so the call reverts
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'error', by: 'sanctions_oracle' });
    configure(freshAddress()); // no code there: the call answers 0x, not a bool
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'error', by: 'sanctions_oracle' });
    configure();
    await rpcDown();
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'error', by: 'sanctions_oracle' });
    // A chain named but not configured in live mode: nowhere to read it, so not screened.
    process.env.SCREENING_ORACLE_CHAINS = 'ETHEREUM,POLYGON';
    resetEnvCache();
    setNetworkOverride('live', eth.live, 'ETHEREUM');
    expect((await screenWithAdapters('evm', a)).outcome).toBe('error');
  });

  it('configuration is zod-checked: an EVM address, EVM network names', () => {
    configure('0x1234');
    expect(() => configuredAdapters()).toThrow(/SCREENING_ORACLE_ADDRESS must be an EVM contract address/);
    configure();
    process.env.SCREENING_ORACLE_CHAINS = 'ETHEREUM,TRON';
    resetEnvCache();
    expect(() => configuredAdapters()).toThrow(/SCREENING_ORACLE_CHAINS must name EVM networks/);
  });
});

describe('destinations (POST /v1/withdrawals, anvil)', () => {
  it('listed on the oracle is 400 destination_screened; a failed read is 503; nothing written either way; not listed passes', async () => {
    configure();
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    const to = freshAddress();
    await eth.oracle.list(to);
    const listed = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
    expect([listed.status, listed.body.code], listed.text).toEqual([400, 'destination_screened']);
    await eth.oracle.unlist(to);
    await rpcDown();
    const down = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
    expect([down.status, down.body.code], down.text).toEqual([503, 'service_unavailable']);
    configure(eth.chain.token);
    setNetworkOverride('live', eth.live, 'ETHEREUM');
    const reverts = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
    expect([reverts.status, reverts.body.code], reverts.text).toEqual([503, 'service_unavailable']);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('50.00');
    configure();
    const ok = await withdrawOn(t.test, { amount: '10.00', destinationAddress: to });
    expect(ok.status, ok.text).toBe(201);
  });
});

describe('payers (watcher, anvil)', () => {
  const payAndWatch = (before: () => Promise<void>) => payFromCustomer(eth, before);

  it('a payment from a sender listed on the oracle is held for review, not credited', async () => {
    configure();
    const { t, detail, transfers } = await payAndWatch(() => eth.oracle.list(customer()));
    await eth.oracle.unlist(customer());
    expect(detail).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(detail.heldPayments).toMatchObject([{ mismatch: 'screening', status: 'held', amount: '10.00' }]);
    expect(transfers).toEqual([]);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('0.00');
  });

  it('a payment whose sender could not be read on the oracle (RPC down) is held, never credited', async () => {
    configure(eth.oracle.address, 500);
    const { detail, transfers } = await payAndWatch(rpcDown);
    expect(detail).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(detail.heldPayments).toMatchObject([{ mismatch: 'screening', status: 'held', amount: '10.00' }]);
    expect(transfers).toEqual([]);
  });
});
