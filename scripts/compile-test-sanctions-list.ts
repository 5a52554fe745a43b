/** Rewrites lib/testing/sanctions-oracle/test-sanctions-list.json from TestSanctionsList.sol (run after changing it). */
import { writeFileSync } from 'node:fs';
import { compileSanctionsList } from '@/lib/testing/sanctions-oracle/compile-sanctions-list';

writeFileSync('lib/testing/sanctions-oracle/test-sanctions-list.json', `${JSON.stringify(compileSanctionsList(), null, 1)}\n`);
console.log('wrote lib/testing/sanctions-oracle/test-sanctions-list.json');
