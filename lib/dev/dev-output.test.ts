import { describe, expect, it } from 'vitest';
import { DevOutputFilter, isMisleadingDevLine } from './dev-output';

/** Next 16.4's start-up block as its CLI prints it to a terminal (bold marks, two-space indent). */
const STARTUP = [
  '   \x1B[1m\x1B[38;2;173;127;168m▲ Next.js 16.4.6\x1B[39m\x1B[22m (Turbopack)',
  '   - Local:         http://localhost:3000',
  '   - Experiments (use with caution):',
  '     \x1B[1m✓\x1B[22m authInterrupts',
  '     \x1B[1m⨯\x1B[22m turbopackFileSystemCacheForDev',
  '',
  ' \x1B[32m\x1B[1m✓\x1B[22m\x1B[39m Ready in 2.1s',
  '',
].join('\n');

describe("npm run dev's filter of Next's output (issue 45)", () => {
  it('drops the "⨯ turbopackFileSystemCacheForDev" line and keeps the rest of the block', () => {
    const f = new DevOutputFilter();
    const out = f.push(STARTUP) + f.end();
    expect(out).not.toContain('turbopackFileSystemCacheForDev');
    expect(out).toContain('✓\x1B[22m authInterrupts\n');
    expect(out).toContain('Ready in 2.1s\n');
    expect(out.split('\n')).toHaveLength(STARTUP.split('\n').length - 1);
  });

  it('keeps real errors marked with ⨯', () => {
    for (const line of [' \x1B[31m⨯\x1B[39m Error: connect ECONNREFUSED 127.0.0.1:8545', '⨯ unhandledRejection: fetch failed', '⨯ authInterrupts']) {
      expect(isMisleadingDevLine(line), line).toBe(false);
      const f = new DevOutputFilter();
      expect(f.push(`${line}\n`) + f.end()).toBe(`${line}\n`);
    }
  });

  it('works on chunks cut anywhere, including inside the line it drops', () => {
    for (let cut = 1; cut < STARTUP.length; cut += 7) {
      const f = new DevOutputFilter();
      const out = f.push(STARTUP.slice(0, cut)) + f.push(STARTUP.slice(cut)) + f.end();
      expect(out, `cut at ${cut}`).toBe(new DevOutputFilter().push(STARTUP));
    }
  });

  it('removes the show-cursor sequence Next writes as it exits, so Ctrl-C leaves no stray escape', () => {
    const f = new DevOutputFilter();
    const out = f.push(' \x1B[32m✓\x1B[39m Compiled /sign-in in 1.2s\n') + f.push('\x1B[?25h') + f.push('\n') + f.end();
    expect(out).toBe(' \x1B[32m✓\x1B[39m Compiled /sign-in in 1.2s\n\n');
    expect(out).not.toContain('\x1B[?');
  });

  it('passes a last line without a newline through at the end', () => {
    const f = new DevOutputFilter();
    expect(f.push('partial')).toBe('');
    expect(f.end()).toBe('partial');
  });
});
