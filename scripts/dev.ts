/**
 * npm run dev: everything on embedded defaults with one command.
 * - database: DATABASE_URL if set, else embedded PGlite under DATA_DIR (.data/): this process owns it
 *   and serves it on a Unix socket; Next, the worker and `npm run gateway` all connect there
 * - worker: inside the web process with PGlite, a separate process with PostgreSQL
 * - Next.js dev server
 * - chains: unless TEST_RPC_URL / LIVE_RPC_URL are set, one anvil per mode and enabled network on 127.0.0.1
 *   (BSC, Ethereum, Polygon; DEV_ALL_RAILS=1 adds Arbitrum and Base) with freshly deployed USDT and USDC at
 *   their real decimals and funded wallets, the TRON stand-in (TRC-20 USDT, 3 s blocks) unless *_TRON_RPC_URL is set,
 *   and the Solana stand-in (SPL USDC and USDT, 400 ms slots, lib/dev/local-solana.ts) unless *_SOLANA_RPC_URL is set;
 *   a new chain id each start, so invoices of an earlier run (whose chain is gone) are left alone
 * - exchange: unless EXCHANGE_URL is set, a local FixedFloat-compatible exchange per local chain
 * The first minutes (issue 45): Next starts first, once the database's lock is taken and every chain is planned (ports,
 * chain ids, token addresses, the TRON stand-ins' USDT); the database opens and migrates, the anvils and the TRON
 * and Solana stand-ins start meanwhile, concurrently, each checked against its plan (Next's boot waits for the database's
 * socket, and checks no rail and runs no worker until DEV_CHAINS_READY_FILE exists); once Next listens, the first
 * pages are requested so they compile while the user reads the log. DEV_TIMINGS=1 prints when each phase ran.
 * Ctrl-C stops Next and the other children first, then the chains, the database last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, planAnvil, startAnvil, type AnvilChain, type PlannedAnvil } from '@/lib/testing/anvil';
import { DevOutputFilter } from '@/lib/dev/dev-output';
import { stopStack } from '@/lib/dev/stop-stack';
import { warmUp } from '@/lib/dev/warm-up';
import { ALL_DEV_RAILS, DEV_RAILS } from '@/lib/dev/dev-rails';
import { localChainEnv } from '@/lib/dev/local-chain-env';
import { planStandIns } from '@/lib/dev/local-stand-ins';
import { CHAIN_SPECS, EVM_CHAINS as CHAINS, parseRails, type Asset, type ChainKey } from '@/lib/config/rails';
import { planLocalExchange } from '@/lib/dev/local-exchange';
import { openDevDatabase } from '@/lib/dev/dev-database';
import { startDevMail } from '@/lib/dev/dev-mail';
import { devPublicBaseUrl } from '@/lib/dev/public-base-url';
import { StartTimings, startTimingsWanted } from '@/lib/dev/start-timings';

const timings = new StartTimings();
timings.mark('modules loaded');

const children: ChildProcess[] = [];
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  APP_ENV: process.env.APP_ENV ?? 'development',
  // Test-mode endpoints may point at http://localhost in development; let deliveries reach them too
  // (loopback only; production refuses this setting).
  WEBHOOK_ALLOW_PRIVATE_HOSTS: process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS ?? '127.0.0.1,::1',
};

/** Starts a child; `filtered`: its standard output goes through lib/dev/dev-output.ts (Next's). */
function start(name: string, cmd: string, args: string[], extra: Record<string, string> = {}, filtered = false) {
  // Its own process group, so Ctrl-C reaches grandchildren too (npx → next → workers).
  const colour = filtered && process.stdout.isTTY && !process.env.NO_COLOR && !process.env.FORCE_COLOR ? { FORCE_COLOR: '1' } : {};
  const child = spawn(cmd, args, {
    stdio: ['inherit', filtered ? 'pipe' : 'inherit', 'inherit'],
    env: { ...env, ...colour, ...extra },
    detached: true,
  });
  if (filtered) {
    const filter = new DevOutputFilter();
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => process.stdout.write(filter.push(chunk)));
    child.stdout!.on('end', () => process.stdout.write(filter.end()));
  }
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping everything`);
      shutdown(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

let shuttingDown = false;
/** Ctrl-C: what uses the chains first, then the chains, the database last (lib/dev/stop-stack.ts). */
function shutdown(code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  const closeDb = database ? () => database.host.then((h) => h.close()).catch(() => {}) : undefined;
  void stopStack({ processes: children, chains: [...chains, ...standIns], closeDb }).finally(() => {
    if (readyFile) rmSync(path.dirname(readyFile), { recursive: true, force: true });
    process.exit(code);
  });
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const dataDir = process.env.DATA_DIR || '.data';
// Opened while Next starts: Next may start once the lock is taken (lib/dev/dev-database.ts).
const database = process.env.DATABASE_URL ? undefined : openDevDatabase(dataDir);
if (database) {
  const fail = (e: unknown) => {
    console.error(`[dev] ${e instanceof Error ? e.message : String(e)}`);
    shutdown(1);
  };
  void timings.time('database', database.host).catch(fail);
  void timings.time('migrations', database.migrated).catch((e: unknown) => {
    // The web process's boot applies them too, and says what failed.
    if (!shuttingDown) console.log(`[dev] migrations from npm run dev: ${e instanceof Error ? e.message : String(e)} (the web process retries)`);
  });
  try {
    await database.owned;
  } catch (e) {
    fail(e);
  }
}

const chains: AnvilChain[] = [];
/** Every local chain of a mode with the network it stands for: the local exchange trades each one's tokens. */
const chainsOfMode: Record<'test' | 'live', { key: ChainKey; chain: AnvilChain }[]> = { test: [], live: [] };

// Rails of a local stack (lib/dev/dev-rails.ts, the rail matrix's rows); RAILS, when set, decides instead.
const railsSetting = process.env.RAILS ?? (process.env.DEV_ALL_RAILS === '1' ? ALL_DEV_RAILS : DEV_RAILS).join(',');
Object.assign(env, { RAILS: railsSetting });
const rails = parseRails(railsSetting);
/** Local blocks: BSC's real 0.45 s; the slower networks mine every 2 s here (12 s on Ethereum would make a demo wait minutes). */
const DEV_BLOCK_TIME: Record<ChainKey, number> = { BSC: 0.45, ETHEREUM: 2, POLYGON: 2, ARBITRUM: 0.5, BASE: 2, TRON: 3, SOLANA: 0.4 };

const takenPorts = new Set<number>();
/** A free port not handed out earlier in this start (the chains bind theirs later, all at once). */
async function newPort(): Promise<number> {
  for (;;) {
    const p = await freePort();
    if (!takenPorts.has(p)) return (takenPorts.add(p), p);
  }
}

/** A local anvil chain planned (port, chain id, token addresses known) before it starts. */
interface PlannedChain {
  mode: 'test' | 'live';
  key: ChainKey;
  tokens: { asset: Asset; decimals: number }[];
  plan: PlannedAnvil;
}
/**
 * Plans the local chains of a mode (one per enabled network, tokens at their real decimals) and returns the env that
 * points the mode at them: Next starts with it while they start.
 */
async function planLocalChains(mode: 'test' | 'live'): Promise<{ env: Record<string, string>; planned: PlannedChain[] }> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  if (process.env[`${p}_RPC_URL`]) return { env: {}, planned: [] };
  const planned: PlannedChain[] = [];
  for (const key of CHAINS) {
    const assets = rails.filter((r) => r.chain === key).map((r) => r.token);
    if (assets.length === 0) continue;
    // BSC's USDT first: the spec's rail, and the token the local exchange trades.
    const tokens = [...assets]
      .sort((a, b) => (a === 'USDT' ? -1 : b === 'USDT' ? 1 : 0))
      .map((asset) => ({ asset, decimals: CHAIN_SPECS[key].tokens[asset]!.decimals }));
    // A new chain id each start, so invoices of an earlier run (whose chain is gone) are left alone.
    planned.push({ mode, key, tokens, plan: planAnvil({ port: await newPort(), chainId: randomInt(100_000, 900_000), tokens }) });
  }
  return {
    env: localChainEnv(
      mode,
      planned.map((c) => ({ key: c.key, chain: c.plan })),
    ),
    planned,
  };
}

/** Starts a planned chain; one that came out other than planned stops the start (Next was told the plan). */
async function startPlanned(c: PlannedChain): Promise<AnvilChain> {
  const chain = await startAnvil({ port: c.plan.port, chainId: c.plan.chainId, blockTime: DEV_BLOCK_TIME[c.key], chain: c.key, tokens: c.tokens });
  chains.push(chain);
  const differs =
    chain.tokens.some((t, i) => t.address.toLowerCase() !== c.plan.tokens[i]!.address.toLowerCase()) ||
    chain.disperse.toLowerCase() !== c.plan.disperse.toLowerCase() ||
    chain.collector.toLowerCase() !== c.plan.collector.toLowerCase();
  if (differs) throw new Error(`${c.mode} ${c.key} chain: contract addresses differ from the planned ones (lib/testing/anvil.ts planAnvil)`);
  const list = chain.tokens.map((t) => `${t.asset} ${t.address} (${t.decimals} decimals)`).join(', ');
  console.log(`[dev] ${c.mode} ${c.key} chain: anvil ${chain.rpcUrl} (chain id ${chain.chainId}), ${list}`);
  return chain;
}

/** The TRON and Solana stand-ins of both modes (lib/dev/local-stand-ins.ts), stopped with the anvils. */
const standIns: { stop(): Promise<unknown> }[] = [];
const planModeStandIns = (mode: 'test' | 'live') =>
  planStandIns({
    mode,
    rails,
    newPort,
    slotMs: { TRON: DEV_BLOCK_TIME.TRON * 1000, SOLANA: DEV_BLOCK_TIME.SOLANA * 1000 },
    stopping: () => shuttingDown,
    started: (n) => standIns.push(n),
  });

const planExchange = async (mode: 'test' | 'live', planned: PlannedChain[]) =>
  planLocalExchange({
    mode,
    port: await newPort(),
    hasLocalBsc: planned.some((c) => c.key === 'BSC'),
    chains: () => chainsOfMode[mode],
    spawnSim: (name, extra) => start(name, process.execPath, ['--import', 'tsx', 'scripts/exchange-sim.ts'], extra),
    stopping: () => shuttingDown,
  });

let readyFile: string | undefined;
/**
 * Plans everything but Next (ports, chain ids, contract addresses, keys) and puts it in Next's env; the returned
 * function starts it all concurrently, once Next has been spawned (issue 45: one after another, the chains took
 * 50-130 s of the first minutes; then Next waited for the TRON stand-ins).
 */
async function planChains(): Promise<() => Promise<void>> {
  const plans = await timings.time('plan chains', Promise.all([planLocalChains('test'), planLocalChains('live')]));
  for (const p of plans) Object.assign(env, p.env);
  const nodes = await Promise.all([planModeStandIns('test'), planModeStandIns('live')]);
  for (const t of nodes) Object.assign(env, t.env);
  const sims = await Promise.all([planExchange('test', plans[0].planned), planExchange('live', plans[1].planned)]);
  for (const x of sims) Object.assign(env, x.env);
  readyFile = path.join(mkdtempSync(path.join(tmpdir(), 'gw-dev-')), 'chains-ready');
  Object.assign(env, { DEV_CHAINS_READY_FILE: readyFile });
  return async () => {
    const standIn = timings.time('stand-ins', Promise.all(nodes.map((t) => t.start())));
    standIn.catch(() => {}); // awaited below; a failure must not go unhandled meanwhile
    const started = await timings.time('anvils', Promise.all(plans.flatMap((p) => p.planned).map(startPlanned)));
    plans.flatMap((p) => p.planned).forEach((c, i) => chainsOfMode[c.mode].push({ key: c.key, chain: started[i]! }));
    const exchanges = (await timings.time('exchanges', Promise.all(sims.map((x) => x.start())))).filter((x) => x !== undefined);
    // One line for both modes' local exchanges (each printed its own banner, which read as one printed twice).
    if (exchanges.length > 0) {
      const where = exchanges.map((x) => `${x.mode} ${x.url}`).join(', ');
      console.log(`[dev] local exchange (FixedFloat API v2): ${where}; on-chain: ${exchanges[0]!.codes.join(', ')}`);
    }
    await standIn;
  };
}
let startChains: () => Promise<void> = async () => {};
try {
  startChains = await planChains();
} catch (e) {
  console.error('[dev] planning the local chains:', e);
  shutdown(1);
}

const port = process.env.PORT ?? '3000';
const external = Boolean(process.env.DATABASE_URL);
// The stack knows its origin: the links it hands out (checkoutUrl, claim links, invitations) are absolute (issue 45).
Object.assign(env, { PUBLIC_BASE_URL: devPublicBaseUrl({ PORT: process.env.PORT, PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL }) });
// A local mail catcher unless the operator set SMTP_URL: the gateway's e-mails land in its web inbox (issue 48).
if (!shuttingDown && !process.env.SMTP_URL) {
  const mail = await startDevMail();
  Object.assign(env, mail.env);
  console.log(`[dev] mail inbox (maildev): ${mail.inboxUrl}, every e-mail the gateway sends lands here`);
}
if (!shuttingDown) {
  timings.mark('next spawned');
  start('next', 'node_modules/.bin/next', ['dev', '-p', port], { WORKER_INLINE: external ? 'false' : 'true' }, true);
  console.log(
    `[dev] gateway on http://localhost:${port} (database: ${external ? 'PostgreSQL' : `embedded PGlite in ${dataDir}/, served by this process on ${database!.socket}`})`,
  );
  const signedIn = () => {
    timings.mark('sign-in served');
    if (startTimingsWanted()) console.log(timings.line());
  };
  void warmUp(`http://127.0.0.1:${port}`, () => shuttingDown, undefined, signedIn).then(
    (s) => s !== undefined && console.log(`[dev] first pages compiled in ${s} s: http://localhost:${port}/sign-in`),
  );
}
// Started once Next has been spawned: its boot checks no rail and starts no worker until the ready file exists.
const chainsStarted = shuttingDown ? new Promise<void>(() => {}) : startChains();
chainsStarted.then(
  () => {
    if (shuttingDown) return;
    if (external) start('worker', process.execPath, ['--import', 'tsx', 'scripts/worker.ts']);
    writeFileSync(readyFile!, '');
    timings.mark('chains ready');
    console.log('[dev] local chains ready');
  },
  (e: unknown) => {
    console.error('[dev] starting the local chains:', e);
    shutdown(1);
  },
);
