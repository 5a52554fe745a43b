import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { TronWeb } from 'tronweb';
import { encodeDeployData, getContractAddress, type Abi, type Hex } from 'viem';
import { toBase58, toEvm } from './address';
import { startAnvilEngine } from './anvil-process';
import { devKey } from './dev-keys';
import { StandInChain } from './chain';
import { tronHttpApi } from './http-api';
import { Ledger, MAINNET_PARAMS, type TronParams } from './ledger';
import artifact from './tether-trc20.json' with { type: 'json' };

export interface TronNodeOptions {
  /** Resource and fee parameters (default: mainnet's, see ledger.ts). */
  params?: Partial<TronParams>;
  /** Blocks behind the head that count as solidified (default 19). */
  solidifyDepth?: number;
  /** Produce a block every this many ms (dev); default none: a block per accepted broadcast (tests). */
  blockTimeMs?: number;
  port?: number;
  /** The chain id (`eth_chainId`) to answer; default a random one, new each start. */
  chainId?: number;
  /** Keep each block's state so `reorg` can replace recent blocks (tests of the reorg path). */
  reorgs?: boolean;
}

export type TronNode = Awaited<ReturnType<typeof startTronNode>>;

const devKeys = () => ({ issuer: devKey(0), gas: devKey(1), hot: devKey(2), fee: devKey(3), other: devKey(4) });

/**
 * What startTronNode({ port }) will make, known before it runs (issue 45: `npm run dev` starts Next with it while
 * the stand-in starts): the keys are fixed, and the USDT is the issuer's first contract (nonce 0). `npm run dev`
 * checks the started node against it.
 */
export function planTronNode(opts: { port: number }) {
  const keys = devKeys();
  const usdtHex = `41${getContractAddress({ from: toEvm(keys.issuer.hex), nonce: 0n })
    .slice(2)
    .toLowerCase()}`;
  return { url: `http://127.0.0.1:${opts.port}`, keys, usdt: toBase58(usdtHex), usdtHex };
}

/**
 * Starts the TRON stand-in: anvil as the execution engine, the TRON HTTP API and JSON-RPC on a free
 * 127.0.0.1 port, a Tether-like TRC-20 USDT (6 decimals, blacklist) and funded wallets
 * (1,000,000 TRX each). What it models and what it does not: docs/tron.md.
 */
export async function startTronNode(opts: TronNodeOptions = {}) {
  const genesisSeconds = Math.floor(Date.now() / 3000) * 3;
  const engine = await startAnvilEngine(genesisSeconds, 728126428);
  const ledger = new Ledger({ ...MAINNET_PARAMS, ...opts.params });
  const chain = new StandInChain(engine.rpc, ledger, opts.solidifyDepth ?? 19);
  // A chain id of its own by default: anvil's genesis hash is the same for every stand-in started in one 3 s slot, and
  // two test files' stand-ins sharing a chain id share a network in the database (its stake queue, its lanes).
  await chain.addGenesis(opts.chainId ?? randomInt(1, 2 ** 31));
  if (opts.reorgs) chain.history = new Map();
  const keys = devKeys();
  for (const k of Object.values(keys)) ledger.create(k.hex, chain.head.timestamp).balance = 1_000_000_000_000n;

  const abi = artifact.abi as Abi;
  const deployData = encodeDeployData({ abi, bytecode: artifact.bytecode as Hex, args: ['Tether USD', 'USDT'] });
  const deployHash = await engine.rpc<string>('eth_sendTransaction', [
    { from: toEvm(keys.issuer.hex), data: deployData, gas: '0x1000000', gasPrice: '0x0' },
  ]);
  await chain.mine();
  const deployed = await engine.rpc<{ contractAddress: string }>('eth_getTransactionReceipt', [deployHash]);
  const usdtHex = `41${deployed.contractAddress.slice(2).toLowerCase()}`;
  chain.register({
    address: usdtHex,
    name: 'TetherToken',
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    origin: keys.issuer.hex,
    energyFactor: ledger.params.energyFactor,
    // Callers pay all of its energy (the issuer stakes none for them).
    userPercent: 100,
    originEnergyLimit: 10_000_000,
  });

  const server = tronHttpApi(chain, { autoMine: !opts.blockTimeMs });
  // Longer than a client's idle keep-alive (Node's agent: 5 s), so the client, not the server, closes an idle socket:
  // a server closing it as the client reuses it is an ECONNRESET (seen after event-loop stalls in npm run dev).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = opts.blockTimeMs
    ? setInterval(() => void chain.mine().catch((e) => console.error('[tron stand-in]', e)), opts.blockTimeMs)
    : undefined;

  const tronWeb = (privateKey: string) => new TronWeb({ fullHost: url, privateKey });
  const usdt = toBase58(usdtHex);
  /** Signs and broadcasts as the issuer; throws unless the node accepted it. */
  const asIssuer = async (fn: string, params: { type: string; value: unknown }[]) => {
    const tw = tronWeb(keys.issuer.privateKey);
    const { transaction } = await tw.transactionBuilder.triggerSmartContract(usdt, fn, { feeLimit: 100_000_000 }, params, keys.issuer.address);
    const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
    if (!res.result) throw new Error(`stand-in ${fn} refused: ${Buffer.from(String(res.message ?? ''), 'hex').toString()}`);
    return res.transaction.txID;
  };

  return {
    url,
    chain,
    keys,
    /** The USDT stand-in, Base58 (`T…`) and stored `41…` hex. */
    usdt,
    usdtHex,
    tronWeb,
    /** Mines `n` blocks (3 s apart in chain time). */
    async mine(n = 1) {
      for (let i = 0; i < n; i++) await chain.mine();
    },
    /**
     * Replaces the last `depth` blocks (needs `reorgs: true`): their transactions go back to the pool except
     * `drop`; mine to build the new branch. See StandInChain.reorg.
     */
    reorg: (depth: number, opts: { drop?: string[] } = {}) => chain.reorg(depth, opts),
    /**
     * The next block is at `ms` (chain time, rounded up to the 3 s slot): a jump forward, or a rewind (earlier than the
     * head: block time goes back once, as anvil's evm_setTime; then 3 s apart again). Payments in later blocks are judged
     * at the new time (an invoice that expired before it sees them late), so a test that jumps restores the wall clock.
     */
    warpTo(ms: number) {
      chain.warpTo = ms;
    },
    /** false: blocks keep coming but pending transactions are never packed (they expire unmined). */
    setPacking(on: boolean) {
      chain.packing = on;
    },
    /** Mints USDT base units to `to` (a real TRON transaction from the issuer). */
    mintUsdt: (to: string, units: bigint) =>
      asIssuer('issue(address,uint256)', [
        { type: 'address', value: to },
        { type: 'uint256', value: units.toString() },
      ]),
    addBlackList: (who: string) => asIssuer('addBlackList(address)', [{ type: 'address', value: who }]),
    /** Sends TRX (sun) from the issuer: activates `to` if it does not exist yet. */
    async sendTrx(to: string, sun: number) {
      const tw = tronWeb(keys.issuer.privateKey);
      const res = await tw.trx.sendTransaction(to, sun);
      if (!res.result) throw new Error(`stand-in sendTrx refused: ${Buffer.from(String(res.message ?? ''), 'hex').toString()}`);
      return res.transaction.txID;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
      await engine.stop();
    },
  };
}
