/**
 * The scale-out and fault harness: one PostgreSQL database, anvil behind a
 * stoppable TCP proxy, N `next start` processes of the production build behind
 * a round-robin proxy, M workers, and loopback webhook receivers that succeed,
 * fail, close connections or time out. Everything on 127.0.0.1; stop() ends
 * every process it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { startExchangeSim } from '@/devtools/exchange-sim/server';
import { freePort, startAnvil, type AnvilChain } from '@/lib/testing/anvil';
import { startRpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { startRoundRobinProxy, type RoundRobinProxy } from './rr-proxy';

/** A TCP proxy in front of anvil: down() refuses and cuts every connection until up(). */
export async function startTcpProxy(targetPort: number) {
  let down = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    down() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    up() {
      down = false;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The tree is shared: wait (up to 10 min) while someone else's `next build` runs, rather than fail or start a second one. */
export async function waitForOtherBuilds() {
  for (let i = 0; i < 120; i++) {
    const building = spawnSync('pgrep', ['-f', 'next-build|next build']).status === 0;
    if (!building) return existsSync('.next/BUILD_ID');
    if (i === 0) console.log('[waiting for a next build in progress]');
    await new Promise((r) => setTimeout(r, 5_000));
  }
  return existsSync('.next/BUILD_ID');
}

export type ReceiverBehaviour = 'ok' | 'flaky' | 'close' | 'timeout' | 'dead';

/**
 * Webhook receivers on one port, by path: /ok answers 200; /flaky answers 500
 * to the first two attempts of each event; /close destroys the connection on
 * the first attempt; /timeout never answers the first attempt (the gateway's
 * 10 s attempt timeout ends it); /dead always answers 500 (dead letter).
 */
export async function startReceivers() {
  const seen = new Map<string, number>(); // `${behaviour}/${endpoint}/${eventId}` -> answered-200 count
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [, behaviour, endpoint] = (req.url ?? '').split('/') as [string, ReceiverBehaviour, string];
      const eventId = String(req.headers['x-webhook-id'] ?? '');
      const k = `${behaviour}/${endpoint}/${eventId}`;
      const n = (attempts.get(k) ?? 0) + 1;
      attempts.set(k, n);
      const ok = () => {
        seen.set(k, (seen.get(k) ?? 0) + 1);
        res.writeHead(200).end('ok');
      };
      if (behaviour === 'ok') return ok();
      if (behaviour === 'flaky') return n <= 2 ? res.writeHead(500).end('boom') : ok();
      if (behaviour === 'close') return n <= 1 ? req.socket.destroy() : ok();
      if (behaviour === 'timeout') return n <= 1 ? undefined : ok();
      res.writeHead(500).end('always failing');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    attempts,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The local exchange (simulator, paying out on the chain) behind a switchable
 * HTTP proxy: mode '429' or '500' answers every call with that status.
 */
export async function startFaultyExchange(chain: AnvilChain) {
  await chain.mint(privateKeyToAccount(chain.keys.other).address, '1000000');
  const apiKey = `k_${randomBytes(6).toString('hex')}`;
  const apiSecret = randomBytes(24).toString('hex');
  const sim = await startExchangeSim({
    keys: { [apiKey]: apiSecret },
    lifecycle: { confirmMs: 500, exchangeMs: 500, withdrawMs: 500 },
    tickMs: 200,
    log: () => {},
    chain: { rpcUrl: chain.rpcUrl, tokenAddress: chain.token, walletKey: chain.keys.other, reqConfirmations: 1 },
  });
  const state = { mode: 'ok' as 'ok' | '429' | '500', refused: 0 };
  const target = new URL(sim.url);
  const server = http.createServer((req, res) => {
    if (state.mode !== 'ok') {
      state.refused++;
      req.resume();
      const status = Number(state.mode);
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ code: status, msg: status === 429 ? 'Too many requests' : 'Internal error', data: null }));
      return;
    }
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    apiSecret,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await sim.stop();
    },
  };
}

export interface ClusterOptions {
  /** Start the exchange simulator (behind a switchable proxy) and point test mode at it. */
  exchange?: boolean;
  apps?: number;
  workers?: number;
  databaseUrl: string;
  env?: Record<string, string>;
  /** Put a JSON-RPC fault proxy (failing methods, random failures, lagging nodes) between the gateway and anvil. */
  rpcFaults?: boolean;
}

function spawnLogged(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string[]) {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  child.stderr!.on('data', (d: Buffer) => {
    const text = d.toString();
    if (!text.includes('nodedir')) log.push(`[${name}] ${text.trim()}`.slice(0, 2000));
  });
  return child;
}

function killGroup(c: ChildProcess, signal: NodeJS.Signals) {
  if (c.exitCode !== null || c.signalCode !== null) return;
  try {
    process.kill(-c.pid!, signal);
  } catch {
    c.kill(signal);
  }
}

function exited(c: ChildProcess) {
  return c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r()));
}

export async function waitForHealth(url: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export async function startCluster(opts: ClusterOptions) {
  const log: string[] = [];
  const chain: AnvilChain = await startAnvil({ blockTime: 0.5 });
  const rpc = await startTcpProxy(chain.port);
  const rpcFaults = opts.rpcFaults ? await startRpcFaultProxy(rpc.url) : null;
  const receivers = await startReceivers();
  const exchange = opts.exchange ? await startFaultyExchange(chain) : null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    APP_ENV: 'test',
    WORKER_INLINE: 'false',
    LOG_LEVEL: 'error',
    NEXT_TELEMETRY_DISABLED: '1',
    TEST_RPC_URL: rpcFaults?.url ?? rpc.url,
    TEST_CHAIN_ID: String(chain.chainId),
    TEST_TOKEN_ADDRESS: chain.token,
    TEST_START_BLOCK: '0',
    TEST_CONFIRMATIONS: '2',
    TEST_DEPOSIT_MNEMONIC: DEV_MNEMONIC,
    TEST_GAS_WALLET_PRIVATE_KEY: chain.keys.gas,
    TEST_FEE_WALLET_ADDRESS: chain.addresses.fee,
    TEST_HOT_WALLET_PRIVATE_KEY: chain.keys.hot,
    TEST_FAUCET_PRIVATE_KEY: chain.keys.faucet,
    WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.0/8',
    WEBHOOK_RETRY_SCALE: '0.0002',
    DB_POOL_MAX: '5',
    ...(exchange ? { TEST_EXCHANGE_URL: exchange.url, TEST_EXCHANGE_API_KEY: exchange.apiKey, TEST_EXCHANGE_API_SECRET: exchange.apiSecret } : {}),
    ...opts.env,
  };
  const ports: number[] = [];
  for (let i = 0; i < (opts.apps ?? 2); i++) ports.push(await freePort());
  const apps: (ChildProcess | null)[] = ports.map(() => null);
  const workers: ChildProcess[] = [];

  const startApp = async (i: number) => {
    apps[i] = spawnLogged(`app${i}`, 'node_modules/.bin/next', ['start', '-H', '127.0.0.1', '-p', String(ports[i])], env, log);
    await waitForHealth(`http://127.0.0.1:${ports[i]}`);
  };
  const startWorkerAt = (i: number) => {
    workers[i] = spawnLogged(`worker${i}`, 'node_modules/.bin/tsx', ['scripts/worker.ts'], env, log);
  };
  await Promise.all(ports.map((_, i) => startApp(i)));
  for (let i = 0; i < (opts.workers ?? 2); i++) startWorkerAt(i);
  const proxy: RoundRobinProxy = await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`));

  return {
    chain,
    rpc,
    rpcFaults,
    receivers,
    exchange,
    proxy,
    env,
    log,
    apps,
    workers,
    /** SIGKILLs worker i (its whole process group) and starts a new one. */
    async killWorker(i: number, restart = true) {
      const w = workers[i]!;
      killGroup(w, 'SIGKILL');
      await exited(w);
      if (restart) startWorkerAt(i);
    },
    async killApp(i: number, restart = true) {
      const a = apps[i]!;
      killGroup(a, 'SIGKILL');
      await exited(a);
      if (restart) await startApp(i);
    },
    async stop() {
      await proxy.close();
      for (const c of [...apps, ...workers]) if (c) killGroup(c, 'SIGTERM');
      const t = setTimeout(() => {
        for (const c of [...apps, ...workers]) if (c) killGroup(c, 'SIGKILL');
      }, 5_000);
      await Promise.all([...apps, ...workers].filter((c): c is ChildProcess => c !== null).map(exited));
      clearTimeout(t);
      await receivers.close();
      await exchange?.close();
      await rpcFaults?.close();
      await rpc.close();
      await chain.stop();
    },
  };
}
