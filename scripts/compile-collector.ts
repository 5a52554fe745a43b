/** Rewrites lib/chain/evm/collector/collector.json from SubscriptionCollector.sol (run after changing the contract). */
import { writeFileSync } from 'node:fs';
import { compileCollector } from '@/lib/chain/evm/collector/compile-collector';

writeFileSync('lib/chain/evm/collector/collector.json', `${JSON.stringify(compileCollector(), null, 1)}\n`);
console.log('wrote lib/chain/evm/collector/collector.json');
