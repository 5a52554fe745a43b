/**
 * Playwright's first webServer: an anvil per EVM network of the dev rails (0.5 s blocks, their test tokens), the TRON and Solana stand-ins and the job
 * worker, with a /health endpoint that answers once both run. Started before
 * the app servers, which get the same environment (e2e/support/stack-env.ts).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { closeDb, migrate } from '@/lib/db';
import { privateKeyToAddress } from 'viem/accounts';
import { startExchangeSim } from '@/devtools/exchange-sim/server';
import { startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { toEvm } from '@/lib/chain/tron/address';
import { startTronNode } from '@/devtools/tron-node/tron-node';
import { startDevMail } from '@/lib/dev/dev-mail';
import { planLocalSolana } from '@/lib/dev/local-solana';
import type { SolanaNode } from '@/devtools/solana-node/solana-node';
import { deployTronCollector } from '@/lib/dev/tron-collector';
import {
  E2E_EVM_CHAINS,
  EXCHANGE_KEY,
  EXCHANGE_PORT,
  EXCHANGE_SECRET,
  MAIL_PORTS,
  SOLANA_FINALIZED_DEPTH,
  SOLANA_ON,
  SOLANA_PORT,
  STACK_PORT,
  TOKEN_ADDRESS,
  TRON_CHAIN_ID,
  TRON_COLLECTOR,
  TRON_PORT,
  TRON_SOLIDIFY_DEPTH,
  TRON_USDT_ADDRESS,
} from './stack-env';

// One anvil per EVM network of the dev rails (the default rail's first), each token where the env says it is.
const anvils: AnvilChain[] = [];
for (const c of E2E_EVM_CHAINS) {
  const a = await startAnvil({ port: c.port, chainId: c.chainId, blockTime: 0.5, chain: c.chain, tokens: c.tokens });
  for (const t of c.tokens)
    if (a.tokenOf(t.asset).toLowerCase() !== t.address.toLowerCase()) {
      console.error(`[e2e stack] ${c.chain} ${t.asset} deployed at ${a.tokenOf(t.asset)}, expected ${t.address}`);
      process.exit(1);
    }
  if (a.collector.toLowerCase() !== c.collector.toLowerCase()) {
    console.error(`[e2e stack] ${c.chain} collector deployed at ${a.collector}, expected ${c.collector}`);
    process.exit(1);
  }
  anvils.push(a);
}
const chain = anvils[0]!;
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
// The subscription collector where the env says (TEST_TRON_COLLECTOR_ADDRESS), the energy wallet staked for pulls.
const tronCollector = await deployTronCollector(tron.url, tron.keys.gas, TRON_COLLECTOR);
console.error(`[e2e stack] TRON collector ${tronCollector.address}: ${tronCollector.energy} energy to deploy`);

// The Solana stand-in (when a Solana rail is a dev rail): its faucet holds 1,000,000 of each mint from the start.
let solana: SolanaNode | undefined;
if (SOLANA_ON) {
  const plan = planLocalSolana({ mode: 'test', port: SOLANA_PORT, slotTimeMs: 400, finalizedDepth: SOLANA_FINALIZED_DEPTH, started: () => {} });
  solana = await plan.start();
}

// The mail catcher the stack's SMTP_URL points at.
const mail = await startDevMail(MAIL_PORTS);

// Migrate here, before /health answers: the app servers start next and must not race the worker's migration.
await migrate();
await closeDb();
const worker = spawn('node_modules/.bin/tsx', ['scripts/worker.ts'], { stdio: ['ignore', 'ignore', 'inherit'], env: process.env });
worker.on('exit', (code) => {
  console.error(`[e2e stack] worker exited (${code})`);
  process.exit(1);
});

// /health; and POST /tron/warp?to=<ms>: the stand-in's next block at that chain time (a subscription's next period,
// weeks ahead, begins on chain: e2e/tron-subscription-autocollect.spec.ts).
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stack');
  if (req.method === 'POST' && url.pathname === '/tron/warp') tron.warpTo(Number(url.searchParams.get('to')));
  res.end('ok');
}).listen(STACK_PORT, '127.0.0.1');

async function stop() {
  server.close();
  worker.removeAllListeners('exit');
  worker.kill('SIGTERM');
  await sim.stop();
  for (const a of anvils) await a.stop();
  await tron.stop();
  await solana?.stop();
  await mail.stop();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
