import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A fresh clone of this checkout in `to`, as a newcomer would have after `git clone` and
 * `npm install`: the files git knows of (committed or not, ignored ones left out, so no .next and
 * no .data), node_modules as hard links (a second or so). Tests that run `npm run dev` use one:
 * Next allows one dev server per project directory, so they neither meet a developer's own
 * `npm run dev` nor each other.
 */
export function cloneCheckout(to: string): string {
  mkdirSync(to, { recursive: true });
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    if (!existsSync(f)) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    cpSync(f, path.join(to, f));
  }
  execFileSync('cp', ['-al', 'node_modules', path.join(to, 'node_modules')]);
  return to;
}

/**
 * Removes a directory (a clone's tens of thousands of node_modules links take 10 to 15 s to
 * unlink) in a detached `rm -rf` that outlives the test process, so a test does not wait for it.
 */
export function discardInBackground(dir: string): void {
  spawn('rm', ['-rf', dir], { detached: true, stdio: 'ignore' }).unref();
}
