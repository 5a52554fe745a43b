import { afterAll, describe, expect, it } from 'vitest';
import { startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { freePort } from '@/lib/testing/anvil';
import { startTronFaultProxy } from '@/lib/testing/tron-fault-proxy';
import { deployTronCollector, planTronCollector } from './tron-collector';

/*
 * `npm run dev` died right after "ready" in CI (dev-stack, dev-restart): the collector's deploy poll got ECONNRESET
 * from the in-process stand-in (a keep-alive socket closed by the server while the client reused it, after the event
 * loop stalled on the embedded database's migrations), and one failed read ended the whole stack. A failed read is
 * retried until the deadline; a broadcast whose answer was lost is sent again and its duplicate counts as sent.
 */
describe('the dev stack deploys the TRON collector through a flaky node', () => {
  let node: TronNode | undefined;
  afterAll(async () => {
    await node?.stop();
  });

  it('failed reads and a lost broadcast answer do not stop the deploy; it lands once, at the planned address', { timeout: 120_000 }, async () => {
    const chainId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
    node = await startTronNode({ port: await freePort(), blockTimeMs: 500, chainId });
    const proxy = await startTronFaultProxy(node.url);
    try {
      const plan = planTronCollector({ chainId, owner: node.keys.gas, plannedAtMs: Date.now() });
      let polls = 0;
      let broadcasts = 0;
      // Every other poll fails; the first broadcast of each transaction reaches the node but its answer is lost.
      proxy.state.failWhen = (c) => c.path.endsWith('/gettransactioninfobyid') && polls++ % 2 === 0;
      proxy.state.loseAnswerWhen = (c) => c.path.endsWith('/broadcasttransaction') && broadcasts++ % 2 === 0;
      const deployed = await deployTronCollector(proxy.url, node.keys.gas, plan);
      expect(deployed.address).toBe(plan.address);
      expect(deployed.energy).toBeGreaterThan(0);
      expect(proxy.state.failed).toBeGreaterThanOrEqual(3); // the faults did happen
      const contract = await node.tronWeb(node.keys.gas.privateKey).trx.getContract(plan.address);
      expect(contract).toMatchObject({ name: 'SubscriptionCollector', origin_address: node.keys.gas.hex });
    } finally {
      await proxy.close();
    }
  });

  it('a node that never answers fails the deploy with the reason, not a hang', { timeout: 120_000 }, async () => {
    const chainId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
    const other = await startTronNode({ port: await freePort(), blockTimeMs: 500, chainId });
    const proxy = await startTronFaultProxy(other.url);
    try {
      proxy.state.failWhen = () => true;
      const plan = planTronCollector({ chainId, owner: other.keys.gas, plannedAtMs: Date.now() });
      await expect(deployTronCollector(proxy.url, other.keys.gas, plan, { deadlineMs: 3_000 })).rejects.toThrow(
        /TRON collector: stake failed until the deadline: .*503/,
      );
    } finally {
      await proxy.close();
      await other.stop();
    }
  });
});
