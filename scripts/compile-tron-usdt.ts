/** Rewrites devtools/tron-node/tether-trc20.json from TetherTRC20.sol (run after changing the contract). */
import { writeFileSync } from 'node:fs';
import { compileUsdt } from '@/devtools/tron-node/compile-usdt';

writeFileSync('devtools/tron-node/tether-trc20.json', `${JSON.stringify(compileUsdt(), null, 1)}\n`);
console.log('wrote devtools/tron-node/tether-trc20.json');
