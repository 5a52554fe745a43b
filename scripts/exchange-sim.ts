/**
 * npm run exchange:sim: the local FixedFloat-compatible exchange (lib/exchange-sim).
 * Env: EXCHANGE_SIM_PORT (default 8787), EXCHANGE_SIM_API_KEY / EXCHANGE_SIM_API_SECRET,
 * EXCHANGE_SIM_RPC_URL + EXCHANGE_SIM_TOKEN_ADDRESS + EXCHANGE_SIM_WALLET_KEY (the local chain:
 * USDTBSC deposits detected on it, USDTBSC payouts sent from that wallet), EXCHANGE_SIM_ORDER_TTL_SECONDS.
 */
import type { Address, Hex } from 'viem';
import { SIM_DEFAULT_KEY, SIM_DEFAULT_SECRET, startExchangeSim } from '@/lib/exchange-sim/server';

const e = process.env;
const chain =
  e.EXCHANGE_SIM_RPC_URL && e.EXCHANGE_SIM_TOKEN_ADDRESS && e.EXCHANGE_SIM_WALLET_KEY
    ? {
        rpcUrl: e.EXCHANGE_SIM_RPC_URL,
        tokenAddress: e.EXCHANGE_SIM_TOKEN_ADDRESS as Address,
        walletKey: e.EXCHANGE_SIM_WALLET_KEY as Hex,
        reqConfirmations: 3,
      }
    : undefined;
const sim = await startExchangeSim({
  port: Number(e.EXCHANGE_SIM_PORT ?? 8787),
  keys: { [e.EXCHANGE_SIM_API_KEY ?? SIM_DEFAULT_KEY]: e.EXCHANGE_SIM_API_SECRET ?? SIM_DEFAULT_SECRET },
  ttlMs: Number(e.EXCHANGE_SIM_ORDER_TTL_SECONDS ?? 1800) * 1000,
  lifecycle: { confirmMs: 3_000, exchangeMs: 3_000, withdrawMs: 3_000 },
  chain,
});
console.log(
  `[exchange-sim] FixedFloat API v2 on ${sim.url}/api/v2 (${chain ? `chain ${chain.rpcUrl}, payouts from ${sim.chain!.address}` : 'no chain: USDTBSC deposits only through /control'})`,
);
const stop = () => void sim.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
