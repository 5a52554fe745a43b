/** Rewrites lib/chain/evm/disperse/disperse.json from Disperse.sol (run after changing the contract). */
import { writeFileSync } from 'node:fs';
import { compileDisperse } from '@/lib/chain/evm/disperse/compile-disperse';

writeFileSync('lib/chain/evm/disperse/disperse.json', `${JSON.stringify(compileDisperse(), null, 1)}\n`);
console.log('wrote lib/chain/evm/disperse/disperse.json');
