import { afterAll, describe, expect, it } from 'vitest';
import { getNetwork, getRail, onFamily } from '@/lib/chain/network';
import { resetEnvCache } from '@/lib/env';
import { collectorNetworkOf } from './collector-network';

/* The TRON collector from the environment (docs/subscriptions.md, "Automatic collection on TRON"): `T…`, as TRON's other addresses. */
const saved = { ...process.env };
function setEnv(vars: Record<string, string>) {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved, vars);
  resetEnvCache();
}
afterAll(() => setEnv({}));

const TRON = {
  RAILS: 'TRON:USDT',
  TEST_TRON_RPC_URL: 'https://nile.trongrid.example',
  TEST_TRON_USDT_ADDRESS: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  TEST_TRON_GAS_WALLET_PRIVATE_KEY: `0x${'99'.repeat(32)}`,
  TEST_TRON_HOT_WALLET_PRIVATE_KEY: `0x${'aa'.repeat(32)}`,
};
const COLLECTOR = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('TEST_TRON_COLLECTOR_ADDRESS', () => {
  it('gives the TRON network its collector (T…) and admin key, and the rail automatic collection; unset: none', () => {
    setEnv({ ...TRON, TEST_TRON_COLLECTOR_ADDRESS: COLLECTOR, TEST_TRON_COLLECTOR_ADMIN_PRIVATE_KEY: `0x${'bb'.repeat(32)}` });
    const contracts = onFamily(getNetwork('test', 'TRON'), {
      evm: () => null,
      tron: (n) => [n.collectorAddress, n.collectorAdminKey],
      solana: () => null,
    });
    expect(contracts).toEqual([COLLECTOR, `0x${'bb'.repeat(32)}`]);
    expect(collectorNetworkOf(getRail('test', 'TRON', 'USDT'))).toMatchObject({
      family: 'tron',
      collectorAddress: COLLECTOR,
      tokenAddress: TRON.TEST_TRON_USDT_ADDRESS,
      operatorKey: TRON.TEST_TRON_GAS_WALLET_PRIVATE_KEY,
    });
    setEnv(TRON);
    expect(collectorNetworkOf(getRail('test', 'TRON', 'USDT'))).toBeNull();
  });
});
