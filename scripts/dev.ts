/**
 * npm run dev: everything on embedded defaults with one command.
 * - database: DATABASE_URL if set, else embedded PGlite under DATA_DIR (.data/): this process owns it
 *   and serves it on a Unix socket; Next, the worker and `npm run gateway` all connect there
 * - worker: inside the web process with PGlite, a separate process with PostgreSQL
 * - Next.js dev server
 * - chains: unless TEST_RPC_URL / LIVE_RPC_URL are set, one anvil per mode and enabled network on 127.0.0.1
 *   (BSC, Ethereum, Polygon; DEV_ALL_RAILS=1 adds Arbitrum and Base) with freshly deployed USDT and USDC at
 *   their real decimals and funded wallets, and the TRON stand-in (TRC-20 USDT, 3 s blocks) unless *_TRON_RPC_URL is set;
 *   a new chain id each start, so invoices of an earlier run (whose chain is gone) are left alone
 * - exchange: unless EXCHANGE_URL is set, a local FixedFloat-compatible exchange per local chain
 * Ctrl-C stops every child.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { freePort, startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { ALL_DEV_RAILS, DEV_RAILS } from '@/lib/dev/dev-rails';
import { localChainEnv } from '@/lib/dev/local-chain-env';
import { localTronEnv } from '@/lib/dev/local-tron-env';
import { tronNodeClient } from '@/lib/chain/tron/node-client';
import { startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { CHAIN_SPECS, EVM_CHAINS as CHAINS, parseRails, type ChainKey } from '@/lib/config/rails';
import { railExchangeCode } from '@/lib/exchange/rail-currencies';
import { EmbeddedDbBusyError, hostEmbedded, type EmbeddedHost } from '@/lib/db/embedded';

const children: ChildProcess[] = [];
const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  APP_ENV: process.env.APP_ENV ?? 'development',
  // Test-mode endpoints may point at http://localhost in development; let deliveries reach them too
  // (loopback only; production refuses this setting).
  WEBHOOK_ALLOW_PRIVATE_HOSTS: process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS ?? '127.0.0.1,::1',
};

function start(name: string, cmd: string, args: string[], extra: Record<string, string> = {}) {
  // Its own process group, so Ctrl-C reaches grandchildren too (npx → next → workers).
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...env, ...extra }, detached: true });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping everything`);
      shutdown(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

function killGroup(c: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-c.pid!, signal);
  } catch {
    c.kill(signal);
  }
}

let shuttingDown = false;
function shutdown(code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const chain of chains) void chain.stop();
  for (const node of tronNodes) void node.stop();
  for (const c of children) if (c.exitCode === null) killGroup(c, 'SIGTERM');
  const exit = async () => {
    // The database closes last, once nothing uses it, so PGlite writes a clean shutdown. Bounded: a
    // close that never returned once left this process holding .data/ after Ctrl-C, so the next
    // `npm run dev` refused to start ("owned by another process"); PGlite recovers like after a crash.
    const closed = embedded?.close().then(
      () => true,
      (e: unknown) => (console.error('[dev] closing the embedded database:', e), true),
    );
    const done = await Promise.race([closed ?? true, new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref())]);
    if (!done) console.error('[dev] the embedded database did not close within 10 s; exiting anyway (it recovers at the next start)');
    process.exit(code);
  };
  setTimeout(() => {
    for (const c of children) if (c.exitCode === null) killGroup(c, 'SIGKILL');
    void exit();
  }, 5_000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(exit);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

let embedded: EmbeddedHost | undefined;
/**
 * Takes the embedded database before anything else starts. A CLI command that owns it briefly
 * (run with no dev stack) is waited for; another long-running owner stops this start.
 */
async function ownEmbedded(dataDir: string): Promise<EmbeddedHost> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await hostEmbedded(dataDir);
    } catch (e) {
      if (!(e instanceof EmbeddedDbBusyError) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
if (!process.env.DATABASE_URL) {
  try {
    embedded = await ownEmbedded(process.env.DATA_DIR || '.data');
  } catch (e) {
    console.error(`[dev] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}

const chains: AnvilChain[] = [];
const chainByMode: Partial<Record<'test' | 'live', AnvilChain>> = {};
/** Every local chain of a mode with the network it stands for: the local exchange trades each one's tokens. */
const chainsOfMode: Record<'test' | 'live', { key: ChainKey; chain: AnvilChain }[]> = { test: [], live: [] };

// Rails of a local stack (lib/dev/dev-rails.ts, the rail matrix's rows); RAILS, when set, decides instead.
const railsSetting = process.env.RAILS ?? (process.env.DEV_ALL_RAILS === '1' ? ALL_DEV_RAILS : DEV_RAILS).join(',');
Object.assign(env, { RAILS: railsSetting });
const rails = parseRails(railsSetting);
/** Local blocks: BSC's real 0.45 s; the slower networks mine every 2 s here (12 s on Ethereum would make a demo wait minutes). */
const DEV_BLOCK_TIME: Record<ChainKey, number> = { BSC: 0.45, ETHEREUM: 2, POLYGON: 2, ARBITRUM: 0.5, BASE: 2, TRON: 3 };

/** Starts the local chains of a mode (one per enabled network, tokens at their real decimals) and returns the env that points the mode at them. */
async function localChain(mode: 'test' | 'live'): Promise<Record<string, string>> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  if (process.env[`${p}_RPC_URL`]) return {};
  for (const key of CHAINS) {
    const assets = rails.filter((r) => r.chain === key).map((r) => r.token);
    if (assets.length === 0) continue;
    // BSC's USDT first: the spec's rail, and the token the local exchange trades.
    const tokens = [...assets]
      .sort((a, b) => (a === 'USDT' ? -1 : b === 'USDT' ? 1 : 0))
      .map((asset) => ({ asset, decimals: CHAIN_SPECS[key].tokens[asset]!.decimals }));
    const chain = await startAnvil({ blockTime: DEV_BLOCK_TIME[key], chain: key, tokens });
    chains.push(chain);
    chainsOfMode[mode].push({ key, chain });
    const list = chain.tokens.map((t) => `${t.asset} ${t.address} (${t.decimals} decimals)`).join(', ');
    console.log(`[dev] ${mode} ${key} chain: anvil ${chain.rpcUrl} (chain id ${chain.chainId}), ${list}`);
    if (key === 'BSC') chainByMode[mode] = chain;
  }
  return localChainEnv(mode, chainsOfMode[mode]);
}
Object.assign(env, await localChain('test'), await localChain('live'));

const tronNodes: TronNode[] = [];
/**
 * The TRON stand-in (devtools/tron-node, docs/tron.md §10) per mode when TRON:USDT is enabled and the mode has no
 * TRON node set: 3 s blocks like TRON's, its USDT, funded energy and custody wallets, and in test mode a faucet
 * holding USDT for "Simulate payment". A new chain id each start, like the anvils.
 */
async function localTron(mode: 'test' | 'live'): Promise<Record<string, string>> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  if (!rails.some((r) => r.chain === 'TRON') || process.env[`${p}_TRON_RPC_URL`]) return {};
  // A random chain id, not the genesis block's own: two stand-ins started within one 3 s slot get the same genesis.
  const node = await startTronNode({ blockTimeMs: DEV_BLOCK_TIME.TRON * 1000, chainId: randomInt(1_000_000_000, 2 ** 31) });
  tronNodes.push(node);
  const [chainIdHex] = await tronNodeClient({ url: node.url, timeoutMs: 5_000 }).jsonRpc([{ method: 'eth_chainId', params: [] }]);
  const chainId = Number(chainIdHex);
  if (mode === 'test') await node.mintUsdt(node.keys.other.address, 1_000_000_000_000n); // 1,000,000 USDT (6 decimals)
  console.log(`[dev] ${mode} TRON chain: stand-in ${node.url} (chain id ${chainId}), USDT ${node.usdt} (6 decimals)`);
  return localTronEnv(mode, node, chainId);
}
Object.assign(env, await localTron('test'), await localTron('live'));

/**
 * The local exchange (npm run exchange:sim) per mode, unless EXCHANGE_URL is set: it sees deposits
 * in every token of the mode's local chains (USDTBSC through EXCHANGE_SIM_*, the others through
 * EXCHANGE_SIM_RAILS, under their exchange codes) and pays them out of its own funded wallet (each
 * chain's spare key).
 */
async function localExchange(mode: 'test' | 'live'): Promise<Record<string, string>> {
  const chain = chainByMode[mode];
  if (process.env.EXCHANGE_URL || !chain) return {};
  const rails: Record<string, { rpcUrl: string; tokenAddress: string; decimals: number; walletKey: string }> = {};
  for (const { key, chain: c } of chainsOfMode[mode]) {
    for (const t of c.tokens) {
      await c.mint(privateKeyToAccount(c.keys.other).address, '100000000', t.address);
      if (key === 'BSC' && t.asset === 'USDT') continue; // the EXCHANGE_SIM_* chain below
      rails[railExchangeCode({ chain: key, token: t.asset })] = {
        rpcUrl: c.rpcUrl,
        tokenAddress: t.address,
        decimals: t.decimals,
        walletKey: c.keys.other,
      };
    }
  }
  const port = String(await freePort());
  const [key, secret] = [`sim_${mode}_${randomBytes(4).toString('hex')}`, randomBytes(24).toString('hex')];
  start(`exchange-sim-${mode}`, process.execPath, ['--import', 'tsx', 'scripts/exchange-sim.ts'], {
    EXCHANGE_SIM_PORT: port,
    EXCHANGE_SIM_API_KEY: key,
    EXCHANGE_SIM_API_SECRET: secret,
    EXCHANGE_SIM_RPC_URL: chain.rpcUrl,
    EXCHANGE_SIM_TOKEN_ADDRESS: chain.token,
    EXCHANGE_SIM_WALLET_KEY: chain.keys.other,
    EXCHANGE_SIM_RAILS: JSON.stringify(rails),
  });
  const p = mode === 'test' ? 'TEST_EXCHANGE' : 'EXCHANGE';
  return { [`${p}_URL`]: `http://127.0.0.1:${port}`, [`${p}_API_KEY`]: key, [`${p}_API_SECRET`]: secret };
}
Object.assign(env, await localExchange('test'), await localExchange('live'));

const port = process.env.PORT ?? '3000';
const external = Boolean(process.env.DATABASE_URL);
// The stack knows its origin: the links it hands out (checkoutUrl, claim links, invitations) are absolute (issue 45).
Object.assign(env, { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}` });
start('next', 'node_modules/.bin/next', ['dev', '-p', port], { WORKER_INLINE: external ? 'false' : 'true' });
if (external) start('worker', process.execPath, ['--import', 'tsx', 'scripts/worker.ts']);
console.log(
  `[dev] gateway on http://localhost:${port} (database: ${external ? 'PostgreSQL' : `embedded PGlite in ${process.env.DATA_DIR || '.data'}/, served by this process on ${embedded!.socket}`})`,
);
