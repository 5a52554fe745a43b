/** Rewrites lib/testing/tokens/test-stablecoins.json from TestStablecoins.sol (run after changing the contracts). */
import { writeFileSync } from 'node:fs';
import { compileStablecoins } from '@/lib/testing/tokens/compile-stablecoins';

writeFileSync('lib/testing/tokens/test-stablecoins.json', `${JSON.stringify(compileStablecoins(), null, 1)}\n`);
console.log('wrote lib/testing/tokens/test-stablecoins.json');
