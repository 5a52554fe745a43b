// The registry these machines reach lacks some other-platform optional packages
// (e.g. @foundry-rs/anvil-darwin-amd64), so npm cannot lock them and `npm ci`
// then refuses the lockfile. This drops optional dependencies that have no
// lock entry; run it after changing dependencies (npm run lock:prune).
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((p) => p.replace(/^.*node_modules\//, '')));
let removed = 0;
for (const entry of Object.values(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      removed++;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`pruned ${removed} unavailable optional dependencies from package-lock.json`);
