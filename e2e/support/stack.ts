/**
 * Playwright's first webServer: anvil (0.5 s blocks, test USDT), the TRON stand-in and the job
 * worker, with a /health endpoint that answers once both run. Started before
 * the app servers, which get the same environment (e2e/support/stack-env.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { closeDb, migrate } from '@/lib/db';
import { privateKeyToAddress } from 'viem/accounts';
import { startExchangeSim } from '@/lib/exchange-sim/server';
import { startAnvil } from '@/lib/testing/anvil';
import { toEvm } from '@/lib/chain/tron/address';
import { startTronNode } from '@/lib/testing/tron/tron-node';
import {
  ANVIL_PORT,
  CHAIN_ID,
  EXCHANGE_KEY,
  EXCHANGE_PORT,
  EXCHANGE_SECRET,
  STACK_PORT,
  TOKEN_ADDRESS,
  TRON_CHAIN_ID,
  TRON_PORT,
  TRON_SOLIDIFY_DEPTH,
  TRON_USDT_ADDRESS,
} from './stack-env';

const chain = await startAnvil({ port: ANVIL_PORT, chainId: CHAIN_ID, blockTime: 0.5 });
if (chain.token.toLowerCase() !== TOKEN_ADDRESS.toLowerCase()) {
  console.error(`[e2e stack] token deployed at ${chain.token}, expected ${TOKEN_ADDRESS}`);
  process.exit(1);
}
// The local exchange sees USDTBSC deposits on this chain and pays USDTBSC out of the spare wallet.
await chain.mint(privateKeyToAddress(chain.keys.other), '1000000');
const sim = await startExchangeSim({
  port: EXCHANGE_PORT,
  keys: { [EXCHANGE_KEY]: EXCHANGE_SECRET },
  lifecycle: { confirmMs: 1_000, exchangeMs: 1_000, withdrawMs: 1_000 },
  chain: { rpcUrl: chain.rpcUrl, tokenAddress: chain.token, walletKey: chain.keys.other, reqConfirmations: 1 },
  log: () => {},
});

// The TRON stand-in: 3 s blocks, its faucet holding USDT for the pay helper.
const tron = await startTronNode({ port: TRON_PORT, chainId: TRON_CHAIN_ID, blockTimeMs: 3000, solidifyDepth: TRON_SOLIDIFY_DEPTH });
if (toEvm(tron.usdtHex).toLowerCase() !== TRON_USDT_ADDRESS.toLowerCase()) {
  console.error(`[e2e stack] TRON USDT deployed at ${tron.usdt}, expected ${TRON_USDT_ADDRESS}`);
  process.exit(1);
}
await tron.mintUsdt(tron.keys.other.address, 1_000_000_000_000n);

// Migrate here, before /health answers: the app servers start next and must not race the worker's migration.
await migrate();
await closeDb();
const worker = spawn('node_modules/.bin/tsx', ['scripts/worker.ts'], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
worker.on('exit', (code) => {
  console.error(`[e2e stack] worker exited (${code})`);
  process.exit(1);
});

const server = createServer((_req, res) => res.end('ok')).listen(STACK_PORT, '127.0.0.1');

async function stop() {
  server.close();
  worker.removeAllListeners('exit');
  worker.kill('SIGTERM');
  await sim.stop();
  await chain.stop();
  await tron.stop();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
