import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatUnits } from 'viem';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { buildTrc20Transfer, signTronTx } from '@/lib/chain/tron/transactions';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { readTronHoldings } from './read-tron';

let rail: TronRail;
let proxy: Server;
let proxyUrl: string;
/** Runs once, just before the proxy forwards the first transaction look-up (then cleared). */
let beforeFirstLookup: (() => Promise<void>) | null = null;

beforeAll(async () => {
  rail = await startTronRail();
  // A node in front of the stand-in that lets a block land between the balance reads and the receipt reads.
  proxy = createServer((req, res) => {
    const forward = () =>
      req.pipe(
        request(`${rail.node.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        }),
      );
    const hook = beforeFirstLookup;
    if (hook && req.url?.includes('gettransactioninfobyid')) {
      beforeFirstLookup = null;
      void hook().then(forward);
    } else forward();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await rail?.stop();
});

describe('the TRON solvency read', () => {
  it('does not count a withdrawal mined after the balances were read as both held and gone', async () => {
    const hot = rail.node.keys.hot;
    await rail.node.mintUsdt(hot.address, 50_000_000n);
    // The withdrawal is broadcast and pooled, not mined yet.
    rail.node.setPacking(false);
    const { head } = await readTronHeads(rail.client);
    const to = TRON_ADDRESS_CODEC.parse(utils.accounts.generateAccount().address.base58);
    const signed = await signTronTx(
      await buildTrc20Transfer({
        token: rail.node.usdt,
        from: hot.hex,
        to,
        amount: 20_000_000n,
        feeLimitSun: 30_000_000,
        ref: head,
        lifetimeMs: 120_000,
      }),
      hot.privateKey,
      head.number,
    );
    await broadcastTronTx(rail.client, signed);
    const held = await readTrc20Balance(rail.client, rail.node.usdtHex, hot.hex);
    // Mined after the balances were read, before its receipt is.
    beforeFirstLookup = async () => {
      rail.node.setPacking(true);
      await rail.node.mine(1);
    };
    const holdings = await readTronHoldings({ ...rail.net, rpcUrl: proxyUrl }, new Map(), async () => [signed.txId]);
    expect(beforeFirstLookup).toBeNull();
    expect(await readTrc20Balance(rail.client, rail.node.usdtHex, hot.hex)).toBe(held - 20_000_000n);
    // The balances are those before it: so it is not mined as of the block they were read at.
    expect(holdings.hotBalances.get('USDT')).toBe(formatUnits(held, 6));
    expect(holdings.mined.has(signed.txId)).toBe(false);
    expect(holdings.blockNumber).toBeLessThan((await readTronHeads(rail.client)).head.number);
  });

  it('counts a withdrawal mined before the read as gone', async () => {
    const hot = rail.node.keys.hot;
    const { head } = await readTronHeads(rail.client);
    const to = TRON_ADDRESS_CODEC.parse(utils.accounts.generateAccount().address.base58);
    const signed = await signTronTx(
      await buildTrc20Transfer({
        token: rail.node.usdt,
        from: hot.hex,
        to,
        amount: 1_000_000n,
        feeLimitSun: 30_000_000,
        ref: head,
        lifetimeMs: 120_000,
      }),
      hot.privateKey,
      head.number,
    );
    await broadcastTronTx(rail.client, signed);
    const holdings = await readTronHoldings(rail.net, new Map(), async () => [signed.txId]);
    expect(holdings.mined.has(signed.txId)).toBe(true);
    expect(holdings.hotBalances.get('USDT')).toBe(formatUnits(await readTrc20Balance(rail.client, rail.node.usdtHex, hot.hex), 6));
  });
});
