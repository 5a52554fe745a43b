/** Rewrites lib/testing/tron/tether-trc20.json from TetherTRC20.sol (run after changing the contract). */
import { writeFileSync } from 'node:fs';
import { compileUsdt } from '@/lib/testing/tron/compile-usdt';

writeFileSync('lib/testing/tron/tether-trc20.json', `${JSON.stringify(compileUsdt(), null, 1)}\n`);
console.log('wrote lib/testing/tron/tether-trc20.json');
