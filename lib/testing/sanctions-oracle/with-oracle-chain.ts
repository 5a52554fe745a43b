import { afterEach } from 'vitest';
import { setNetworkOverride } from '@/lib/chain/network';
import { resetEnvCache } from '@/lib/env';
import { freePort } from '../anvil';
import { withScreeningChain } from '../screening-chain';
import { deploySanctionsList } from './deploy-sanctions-list';

const VARS = ['SCREENING_ORACLE_ADDRESS', 'SCREENING_ORACLE_CHAINS', 'SCREENING_ADAPTER_TIMEOUT_MS'];

/**
 * The screening chain (lib/testing/screening-chain.ts) with the sanctions oracle stand-in deployed on it and live
 * mode's ETHEREUM pointed at the same anvil (the oracle is read through live RPCs, whatever the money's mode). After
 * each test the oracle's variables and the live network are put back. `configure` turns the adapter on.
 */
export function withOracleChain() {
  const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));
  const eth = withScreeningChain(async ({ chain }) => {
    const live = chain.network('live', { confirmations: 2 });
    setNetworkOverride('live', live, 'ETHEREUM');
    return { live, oracle: await deploySanctionsList(chain) };
  });
  afterEach(() => {
    for (const v of VARS) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    resetEnvCache();
    setNetworkOverride('live', eth.live, 'ETHEREUM');
  });
  return Object.assign(eth, {
    /** Turns the oracle adapter on (ETHEREUM only), at `address` (default: the stand-in), with this read timeout. */
    configure(address: string = eth.oracle.address, timeoutMs = 5_000) {
      process.env.SCREENING_ORACLE_ADDRESS = address;
      process.env.SCREENING_ORACLE_CHAINS = 'ETHEREUM';
      process.env.SCREENING_ADAPTER_TIMEOUT_MS = String(timeoutMs);
      resetEnvCache();
    },
    /** Live ETHEREUM read through `rpcUrl` (a fault proxy, a closed port); none: a port nobody listens on. */
    async liveRpc(rpcUrl?: string) {
      setNetworkOverride('live', { ...eth.live, rpcUrl: rpcUrl ?? `http://127.0.0.1:${await freePort()}` }, 'ETHEREUM');
    },
  });
}
