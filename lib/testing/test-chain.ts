import { afterAll, beforeAll } from 'vitest';
import { setNetworkOverride } from '@/lib/chain/network';
import { startAnvil, type AnvilChain, type AnvilOptions } from './anvil';

/**
 * One anvil chain for a test file, installed as the test mode's network for
 * the file's duration and stopped after it. `ready` runs once the chain is up
 * (mint, deploy, keep references).
 */
export function withTestChain(ready: (chain: AnvilChain) => void | Promise<void>, opts: AnvilOptions = {}) {
  let chain: AnvilChain | undefined;
  beforeAll(async () => {
    chain = await startAnvil(opts);
    setNetworkOverride('test', chain.network('test'));
    await ready(chain);
  });
  afterAll(async () => {
    setNetworkOverride('test', undefined, opts.chain ?? 'BSC');
    await chain?.stop();
  });
}
